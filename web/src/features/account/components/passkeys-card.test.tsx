import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser'
import { json, jsonBody, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import type { MemberPasskey } from '../api/passkeys'
import { PasskeysCard } from './passkeys-card'

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: vi.fn(() => true),
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
}))

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString()
const laptop: MemberPasskey = { id: 7, name: 'Laptop', createdAt: hoursAgo(48), lastUsedAt: hoursAgo(2) }
const phone: MemberPasskey = { id: 8, name: 'Phone', createdAt: hoursAgo(1), lastUsedAt: null }
const created: RegistrationResponseJSON = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  clientExtensionResults: {},
  response: { attestationObject: 'ao', clientDataJSON: 'cd' },
}
const options = { publicKey: { challenge: 'abc', rp: { id: 'localhost', name: 'Murmur' } } }

/** The server's passkeys: listed, added through a ceremony, removed. */
function server(initial: MemberPasskey[]) {
  let passkeys = initial
  return mockFetch((url, init) => {
    if (url === '/api/auth/passkeys/register/start') return json({ ceremony: 'c-1', options })
    if (url === '/api/auth/passkeys/register/finish') {
      const body = jsonBody(init) as { name: string }
      const added = { id: 9, name: body.name, createdAt: new Date().toISOString(), lastUsedAt: null }
      passkeys = [added, ...passkeys]
      return json(added, 201)
    }
    if (init.method === 'DELETE') {
      passkeys = passkeys.filter((p) => url !== `/api/auth/passkeys/${p.id}`)
      return new Response(null, { status: 204 })
    }
    return json(passkeys)
  })
}

beforeEach(() => vi.mocked(browserSupportsWebAuthn).mockReturnValue(true))

afterEach(() => {
  vi.unstubAllGlobals()
  vi.mocked(startRegistration).mockReset()
})

describe('the passkeys card', () => {
  it('lists each passkey with when it was added and last used', async () => {
    server([phone, laptop])
    renderWithProviders(<PasskeysCard />)
    const region = await screen.findByRole('region', { name: 'Passkeys' })
    const rows = await within(region).findAllByRole('listitem')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByText('Phone')).toBeInTheDocument()
    expect(within(rows[0]).getByText(/^Added .* · Never used$/)).toBeInTheDocument()
    expect(within(rows[1]).getByText(/^Added .* · Last used 2 hours ago$/)).toBeInTheDocument()
  })

  it('adds a passkey with a name through the browser', async () => {
    vi.mocked(startRegistration).mockResolvedValue(created)
    const fetch = server([])
    renderWithProviders(<PasskeysCard />)
    const region = await screen.findByRole('region', { name: 'Passkeys' })
    expect(await within(region).findByText('You have no passkeys yet.')).toBeInTheDocument()

    await userEvent.click(within(region).getByRole('button', { name: 'Add a passkey' }))
    expect(await within(region).findByText(/Please give the passkey a name/)).toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).not.toContain('POST /api/auth/passkeys/register/start')

    await userEvent.type(within(region).getByLabelText('Passkey name'), 'Work laptop')
    await userEvent.click(within(region).getByRole('button', { name: 'Add a passkey' }))
    expect(await screen.findByText('Passkey added')).toBeInTheDocument()
    expect(await within(region).findByText('Work laptop')).toBeInTheDocument()
    expect(within(region).getByLabelText('Passkey name')).toHaveValue('')
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: options.publicKey })
    const finish = fetch.mock.calls.find(([url]) => url === '/api/auth/passkeys/register/finish')
    expect(jsonBody(finish?.[1])).toEqual({ ceremony: 'c-1', name: 'Work laptop', credential: created })
  })

  it('says so when adding is cancelled in the browser, and keeps nothing', async () => {
    vi.mocked(startRegistration).mockRejectedValue(new DOMException('Not allowed', 'NotAllowedError'))
    const fetch = server([])
    renderWithProviders(<PasskeysCard />)
    const region = await screen.findByRole('region', { name: 'Passkeys' })
    await userEvent.type(await within(region).findByLabelText('Passkey name'), 'Phone')
    await userEvent.click(within(region).getByRole('button', { name: 'Add a passkey' }))
    expect(await screen.findByText('Adding the passkey was cancelled or timed out.')).toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).not.toContain('POST /api/auth/passkeys/register/finish')
  })

  it('removes a passkey after a confirm, and can be cancelled', async () => {
    const fetch = server([phone, laptop])
    renderWithProviders(<PasskeysCard />)
    const region = await screen.findByRole('region', { name: 'Passkeys' })
    await within(region).findByText('Laptop')

    await userEvent.click(within(region).getByRole('button', { name: /^Remove Laptop, added / }))
    let dialog = await screen.findByRole('dialog', { name: 'Remove this passkey?' })
    expect(within(dialog).getByText(/“Laptop” will no longer sign in to your account/)).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(requestsOf(fetch).map(({ call }) => call)).not.toContain('DELETE /api/auth/passkeys/7')

    await userEvent.click(within(region).getByRole('button', { name: /^Remove Laptop, added / }))
    dialog = await screen.findByRole('dialog', { name: 'Remove this passkey?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove passkey' }))
    expect(await screen.findByText('Removed “Laptop”')).toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('DELETE /api/auth/passkeys/7')
    await vi.waitFor(() => expect(within(region).getAllByRole('listitem')).toHaveLength(1))
  })

  it('asks the member to confirm with a passkey first when they signed in too long ago', async () => {
    vi.mocked(startRegistration).mockResolvedValue(created)
    const signed: AuthenticationResponseJSON = {
      id: 'cred',
      rawId: 'cred',
      type: 'public-key',
      clientExtensionResults: {},
      response: { authenticatorData: 'ad', clientDataJSON: 'cd', signature: 'sig' },
    }
    vi.mocked(startAuthentication).mockResolvedValue(signed)
    let confirmed = false
    const fetch = mockFetch((url, init) => {
      if (url === '/api/auth/passkeys/register/start') {
        return confirmed ? json({ ceremony: 'c-1', options }) : json({ message: "Please confirm it's you first" }, 403)
      }
      if (url === '/api/auth/passkeys/login/start') return json({ ceremony: 'l-1', options })
      if (url === '/api/auth/passkeys/reauthenticate') {
        confirmed = true
        return new Response(null, { status: 204 })
      }
      if (url === '/api/auth/passkeys/register/finish') return json({ ...phone, id: 9, name: 'Tablet' }, 201)
      if (url === '/api/auth/me') return json({ email: 'ada@example.com' })
      if (init.method === undefined || init.method === 'GET') return json([laptop])
      return json({}, 404)
    })
    renderWithProviders(<PasskeysCard />)
    const region = await screen.findByRole('region', { name: 'Passkeys' })
    await within(region).findByText('Laptop')
    await userEvent.type(within(region).getByLabelText('Passkey name'), 'Tablet')
    await userEvent.click(within(region).getByRole('button', { name: 'Add a passkey' }))

    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" })
    expect(screen.queryByText('Passkey not added')).not.toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use a passkey' }))
    expect(await screen.findByText("It's you")).toBeInTheDocument()
    expect(jsonBody(fetch.mock.calls.find(([url]) => url === '/api/auth/passkeys/reauthenticate')?.[1])).toEqual({
      ceremony: 'l-1',
      credential: signed,
    })

    await userEvent.click(within(region).getByRole('button', { name: 'Add a passkey' }))
    expect(await screen.findByText('Passkey added')).toBeInTheDocument()
  })

  it('offers an e-mailed link to confirm it is them, the only way without a passkey', async () => {
    const fetch = mockFetch((url, init) => {
      if (url === '/api/auth/passkeys/register/start') return json({ message: "Please confirm it's you first" }, 403)
      if (url === '/api/auth/reauthenticate/request-link') return json({ message: 'We sent you a link.' })
      if (url === '/api/auth/me') return json({ email: 'ada@example.com' })
      if (init.method === undefined || init.method === 'GET') return json([])
      return json({}, 404)
    })
    renderWithProviders(<PasskeysCard />)
    const region = await screen.findByRole('region', { name: 'Passkeys' })
    await userEvent.type(await within(region).findByLabelText('Passkey name'), 'Phone')
    await userEvent.click(within(region).getByRole('button', { name: 'Add a passkey' }))

    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" })
    expect(within(dialog).queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'E-mail me a link' }))
    expect(await within(dialog).findByText(/We sent a link to ada@example.com\. Open it in this browser/)).toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('POST /api/auth/reauthenticate/request-link')
  })

  it('offers no adding where the browser cannot make passkeys', async () => {
    vi.mocked(browserSupportsWebAuthn).mockReturnValue(false)
    server([laptop])
    renderWithProviders(<PasskeysCard />)
    const region = await screen.findByRole('region', { name: 'Passkeys' })
    expect(await within(region).findByText("This browser can't use passkeys.")).toBeInTheDocument()
    expect(within(region).queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument()
  })
})

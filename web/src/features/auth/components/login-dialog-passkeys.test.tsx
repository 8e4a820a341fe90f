import * as React from 'react'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/browser'
import { aUser, json, jsonBody, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { authKeys } from '@/lib/query-keys'
import { LoginDialog } from './login-dialog'

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: vi.fn(() => true),
  browserSupportsWebAuthnAutofill: vi.fn(() => Promise.resolve(false)),
  startAuthentication: vi.fn(),
}))

const answer: AuthenticationResponseJSON = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  clientExtensionResults: {},
  response: { authenticatorData: 'ad', clientDataJSON: 'cd', signature: 'sig', userHandle: 'uh' },
}
const options = { publicKey: { challenge: 'abc', rpId: 'localhost', userVerification: 'required' } }

function Harness({ onOpenChange }: { onOpenChange?: (open: boolean) => void }) {
  const [open, setOpen] = React.useState(true)
  return (
    <LoginDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        onOpenChange?.(next)
      }}
    />
  )
}

/** The server: a sign-in ceremony begins, and finishes as `finish` says. */
function server(finish: () => Response) {
  return mockFetch((url) => {
    if (url === '/api/auth/passkeys/login/start') return json({ ceremony: 'c-1', options })
    if (url === '/api/auth/passkeys/login/finish') return finish()
    return json({ message: 'unexpected' }, 500)
  })
}

beforeEach(() => {
  vi.mocked(browserSupportsWebAuthn).mockReturnValue(true)
  vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(false)
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.mocked(startAuthentication).mockReset()
})

describe('signing in with a passkey', () => {
  it('signs in from the button, exactly as a magic link does, and closes the dialog', async () => {
    vi.mocked(startAuthentication).mockResolvedValue(answer)
    const fetch = server(() => json(aUser))
    const closed = vi.fn()
    const { queryClient } = renderWithProviders(<Harness onOpenChange={closed} />)
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }))

    await waitFor(() => expect(closed).toHaveBeenCalledWith(false))
    expect(queryClient.getQueryData(authKeys.me())).toEqual(aUser)
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: options.publicKey, useBrowserAutofill: false })
    const calls = requestsOf(fetch).map(({ call }) => call)
    expect(calls).toEqual(['POST /api/auth/passkeys/login/start', 'POST /api/auth/passkeys/login/finish'])
    expect(jsonBody(fetch.mock.calls[1]?.[1])).toEqual({ ceremony: 'c-1', credential: answer })
  })

  it('says so when the person cancels, and sends nothing to finish', async () => {
    vi.mocked(startAuthentication).mockRejectedValue(new DOMException('The operation was not allowed.', 'NotAllowedError'))
    const fetch = server(() => json(aUser))
    renderWithProviders(<Harness />)
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }))
    expect(await screen.findByText('Signing in with a passkey was cancelled or timed out.')).toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).not.toContain('POST /api/auth/passkeys/login/finish')
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeEnabled()
  })

  it("shows the server's reason for a passkey it refuses", async () => {
    vi.mocked(startAuthentication).mockResolvedValue(answer)
    server(() => json({ message: 'This passkey is not known here.' }, 400))
    renderWithProviders(<Harness />)
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }))
    expect(await screen.findByText('This passkey is not known here.')).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Join Murmur' })).toBeInTheDocument()
  })

  it('offers passkeys in the e-mail field where the browser can (conditional mediation)', async () => {
    vi.mocked(browserSupportsWebAuthnAutofill).mockResolvedValue(true)
    vi.mocked(startAuthentication).mockImplementation(() => new Promise(() => {}))
    const fetch = server(() => json(aUser))
    renderWithProviders(<Harness />)
    expect(screen.getByLabelText('Email')).toHaveAttribute('autocomplete', 'username webauthn')
    await waitFor(() =>
      expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: options.publicKey, useBrowserAutofill: true }),
    )
    expect(requestsOf(fetch).map(({ call }) => call)).toEqual(['POST /api/auth/passkeys/login/start'])
  })

  it('offers no passkeys where the browser has none', () => {
    vi.mocked(browserSupportsWebAuthn).mockReturnValue(false)
    const fetch = server(() => json(aUser))
    renderWithProviders(<Harness />)
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
  })
})

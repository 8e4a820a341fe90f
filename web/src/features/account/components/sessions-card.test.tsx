import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import type { MemberSession } from '../api/get-sessions'
import { SessionsCard } from './sessions-card'

afterEach(() => {
  vi.unstubAllGlobals()
})

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString()

const laptop: MemberSession = {
  id: 'a'.repeat(32),
  current: true,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  browser: 'Firefox 128',
  os: 'Linux',
  createdAt: hoursAgo(30),
  lastUsedAt: hoursAgo(0),
  network: '203.0.113.0/24',
  signedInWith: 'link',
}
const phone: MemberSession = {
  id: 'b'.repeat(32),
  current: false,
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Version/17.5 Mobile/15E148 Safari/604.1',
  browser: 'Safari 17',
  os: 'iOS',
  createdAt: hoursAgo(50),
  lastUsedAt: hoursAgo(3),
  network: '2001:db8:7::/48',
  signedInWith: 'passkey',
}

describe('the sessions list', () => {
  it('names each session, marks this device, and ends another session with its Log out', async () => {
    let sessions = [laptop, phone]
    const fetch = mockFetch((url, init) => {
      if (init.method === 'DELETE') {
        sessions = sessions.filter((s) => url !== `/api/auth/sessions/${s.id}`)
        return new Response(null, { status: 204 })
      }
      return json(sessions)
    })
    renderWithProviders(<SessionsCard />)
    const region = await screen.findByRole('region', { name: 'Sessions' })
    const rows = await within(region).findAllByRole('listitem')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]).getByText('Firefox 128 on Linux')).toBeInTheDocument()
    expect(within(rows[0]).getByText('This device')).toBeInTheDocument()
    expect(within(rows[0]).getByText(/^Active now · 203\.0\.113\.0\/24 · Logged in /)).toBeInTheDocument()
    expect(within(rows[1]).getByText(/^Last active 3 hours ago · 2001:db8:7::\/48 · Logged in /)).toBeInTheDocument()
    expect(within(rows[1]).queryByText('This device')).not.toBeInTheDocument()

    await userEvent.click(within(region).getByRole('button', { name: /^Log out Safari 17 on iOS, logged in / }))
    expect(await screen.findByText('Logged out Safari 17 on iOS')).toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).toContain(`DELETE /api/auth/sessions/${phone.id}`)
    await vi.waitFor(() => expect(within(region).getAllByRole('listitem')).toHaveLength(1))
    // With no other session left, there is nothing else to log out of.
    expect(within(region).queryByRole('button', { name: 'Log out everywhere else' })).not.toBeInTheDocument()
  })

  it('asks before logging out everywhere else, and can be cancelled', async () => {
    let sessions = [laptop, phone, { ...phone, id: 'c'.repeat(32), browser: null, os: null, userAgent: null }]
    const fetch = mockFetch((url, init) => {
      if (url === '/api/auth/logout-others' && init.method === 'POST') {
        sessions = [laptop]
        return new Response(null, { status: 204 })
      }
      return json(sessions)
    })
    renderWithProviders(<SessionsCard />)
    const region = await screen.findByRole('region', { name: 'Sessions' })
    await within(region).findByText('Unknown browser')

    await userEvent.click(within(region).getByRole('button', { name: 'Log out everywhere else' }))
    let dialog = await screen.findByRole('dialog', { name: 'Log out everywhere else?' })
    expect(within(dialog).getByText(/Your 2 other sessions will be logged out at once/)).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(requestsOf(fetch).map(({ call }) => call)).not.toContain('POST /api/auth/logout-others')

    await userEvent.click(within(region).getByRole('button', { name: 'Log out everywhere else' }))
    dialog = await screen.findByRole('dialog', { name: 'Log out everywhere else?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log out everywhere else' }))
    expect(await screen.findByText('Logged out everywhere else')).toBeInTheDocument()
    await vi.waitFor(() => expect(within(region).getAllByRole('listitem')).toHaveLength(1))
    expect(requestsOf(fetch)).toContainEqual({ call: 'POST /api/auth/logout-others', body: { removePasskeys: false } })
  })

  it('removes the passkeys too when asked to, in the same call', async () => {
    const fetch = mockFetch((url, init) => {
      if (url === '/api/auth/logout-others' && init.method === 'POST') return new Response(null, { status: 204 })
      return json([laptop, phone])
    })
    renderWithProviders(<SessionsCard />)
    const region = await screen.findByRole('region', { name: 'Sessions' })
    await userEvent.click(await within(region).findByRole('button', { name: 'Log out everywhere else' }))
    const dialog = await screen.findByRole('dialog', { name: 'Log out everywhere else?' })
    const passkeys = within(dialog).getByRole('checkbox', { name: 'Also remove all passkeys' })
    expect(passkeys).not.toBeChecked()

    await userEvent.click(passkeys)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log out everywhere else' }))

    expect(await screen.findByText('Your passkeys were removed too.')).toBeInTheDocument()
    expect(requestsOf(fetch)).toContainEqual({ call: 'POST /api/auth/logout-others', body: { removePasskeys: true } })
  })
})

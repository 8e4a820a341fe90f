import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { takePendingAuthorization } from '../lib/authorization'
import { ConsentScreen } from './consent-screen'

const ada = { id: 1, username: 'ada', displayName: 'Ada' }
const request = {
  appName: 'Ivory',
  appWebsite: 'https://tapbots.com/ivory',
  scope: 'read write',
  abilities: ['Read your feeds', 'Post as you'],
  redirectUri: 'ivory://oauth',
  scopesBeyondApp: [],
  redirectHost: 'ivory://oauth',
}
const query = '?response_type=code&client_id=abc&redirect_uri=ivory%3A%2F%2Foauth&scope=read+write&state=s1'

afterEach(() => {
  vi.unstubAllGlobals()
  window.history.replaceState(null, '', '/')
  localStorage.clear()
})

describe('the consent page', () => {
  it('says what the app asks for, and Allow sends the answer and follows the redirect', async () => {
    window.history.replaceState(null, '', `/oauth/authorize${query}`)
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign, search: query, pathname: '/oauth/authorize' })
    const fetch = mockFetch((url, init) => {
      if (url === '/api/auth/me') return json(ada)
      if (init.method === 'POST') return json({ redirectTo: 'ivory://oauth?code=c1&state=s1', code: null })
      return json(request)
    })
    renderWithProviders(<ConsentScreen />)
    expect(await screen.findByRole('heading', { name: 'Ivory wants to read and write as @ada' })).toBeInTheDocument()
    expect(screen.getByText('Post as you')).toBeInTheDocument()
    expect(screen.getByText(/^Allow and Deny send you to/)).toHaveTextContent('Allow and Deny send you to ivory://oauth')
    await userEvent.click(screen.getByRole('button', { name: 'Allow' }))
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('ivory://oauth?code=c1&state=s1'))
    const answer = requestsOf(fetch).find(({ call }) => call === 'POST /api/oauth/authorization')
    expect(answer?.body).toMatchObject({ clientId: 'abc', redirectUri: 'ivory://oauth', state: 's1', allow: true })
    expect(requestsOf(fetch).map(({ call }) => call)).toContain(
      'GET /api/oauth/authorization?client_id=abc&redirect_uri=ivory%3A%2F%2Foauth&scope=read+write',
    )
  })

  it('says where the answer goes: the host of a web redirect, or this page for a code to copy', async () => {
    const web = { ...request, redirectUri: 'https://app.example/callback', redirectHost: 'app.example' }
    const copy = { ...request, redirectUri: 'urn:ietf:wg:oauth:2.0:oob', redirectHost: null }
    for (const [asked, where] of [
      [web, 'app.example'],
      [copy, 'this page'],
    ] as const) {
      vi.stubGlobal('location', { ...window.location, search: query, pathname: '/oauth/authorize' })
      mockFetch((url) => (url === '/api/auth/me' ? json(ada) : json(asked)))
      const { unmount } = renderWithProviders(<ConsentScreen />)
      const line = await screen.findByText(/^Allow and Deny send you to/)
      expect(line).toHaveTextContent(`Allow and Deny send you to ${where}`)
      expect(line.querySelector('strong')).toHaveTextContent(where)
      unmount()
    }
  })

  it('asks a visitor to sign in first and remembers to come back', async () => {
    vi.stubGlobal('location', { ...window.location, search: query, pathname: '/oauth/authorize' })
    mockFetch(() => new Response(JSON.stringify({ message: 'Unauthorized' }), { status: 401 }))
    renderWithProviders(<ConsentScreen />)
    expect(await screen.findByRole('heading', { name: 'Sign in to Murmur to continue' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(takePendingAuthorization()).toBe(`/oauth/authorize${query}`)
    expect(takePendingAuthorization()).toBeNull()
  })

  it('refuses scopes the app never registered, naming them, with a way back to the app', async () => {
    vi.stubGlobal('location', { ...window.location, search: query, pathname: '/oauth/authorize' })
    mockFetch((url) => (url === '/api/auth/me' ? json(ada) : json({ ...request, scopesBeyondApp: ['push', 'write:lists'] })))
    renderWithProviders(<ConsentScreen />)
    expect(await screen.findByRole('heading', { name: 'Ivory cannot connect' })).toBeInTheDocument()
    expect(screen.getByText(/Ivory asks for push and write:lists, which it did not register, so it cannot connect/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Ivory' })).toHaveAttribute('href', 'ivory://oauth?error=invalid_scope&state=s1')
    expect(screen.queryByRole('button', { name: 'Allow' })).not.toBeInTheDocument()
  })

  it('sends an app without a redirect back Home when it asks beyond its scopes', async () => {
    vi.stubGlobal('location', { ...window.location, search: query, pathname: '/oauth/authorize' })
    const outOfBand = { ...request, redirectUri: 'urn:ietf:wg:oauth:2.0:oob', scopesBeyondApp: ['push'] }
    mockFetch((url) => (url === '/api/auth/me' ? json(ada) : json(outOfBand)))
    renderWithProviders(<ConsentScreen />)
    expect(await screen.findByText(/Ivory asks for push, which it did not register/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', '/')
  })

  it('refuses a page that names no app', async () => {
    vi.stubGlobal('location', { ...window.location, search: '?client_id=abc', pathname: '/oauth/authorize' })
    mockFetch(() => json(ada))
    renderWithProviders(<ConsentScreen />)
    expect(await screen.findByRole('heading', { name: 'This sign-in link is incomplete' })).toBeInTheDocument()
  })
})

describe('the pending authorization', () => {
  it('is only this site’s consent page, and only while fresh', async () => {
    const { rememberPendingAuthorization } = await import('../lib/authorization')
    rememberPendingAuthorization('https://evil.example/')
    expect(takePendingAuthorization()).toBeNull()
    rememberPendingAuthorization('/oauth/authorize?client_id=a', 0)
    expect(takePendingAuthorization(20 * 60 * 1000)).toBeNull()
  })
})

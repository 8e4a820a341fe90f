import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aUser, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { ConfirmSignIn } from './confirm-sign-in'

afterEach(() => {
  vi.unstubAllGlobals()
  window.history.replaceState(null, '', '/')
})

function visit(search: string) {
  window.history.replaceState(null, '', `/auth/reauthenticate${search}`)
  return renderWithProviders(<ConfirmSignIn />)
}

describe('the screen of the link that confirms it is the member', () => {
  it("confirms this browser's session once, then offers Settings", async () => {
    const fetch = mockFetch((url) =>
      url === '/api/auth/reauthenticate/verify' ? new Response(null, { status: 204 }) : json(aUser),
    )
    visit('?token=abc')
    expect(await screen.findByRole('heading', { name: "It's you" })).toBeInTheDocument()
    const calls = requestsOf(fetch).filter(({ call }) => call.startsWith('POST /api/auth/reauthenticate/verify'))
    expect(calls).toEqual([{ call: 'POST /api/auth/reauthenticate/verify', body: { token: 'abc' } }])
    expect(requestsOf(fetch).map(({ call }) => call)).not.toContain('GET /api/auth/verify?token=abc')
    await userEvent.click(screen.getByRole('button', { name: 'Go to Settings' }))
    expect(window.location.pathname).toBe('/settings')
  })

  it('signs in a browser without the session, as a login link does', async () => {
    const fetch = mockFetch((url) => (url === '/api/auth/reauthenticate/verify' ? json({ message: 'Unauthorized' }, 401) : json(aUser)))
    visit('?token=abc')
    expect(await screen.findByRole('heading', { name: "You're logged in" })).toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('GET /api/auth/verify?token=abc')
  })

  it("says what is wrong with a link that can't be used", async () => {
    mockFetch(() => json({ message: 'Invalid or expired link' }, 400))
    visit('?token=abc')
    expect(await screen.findByText('Invalid or expired link')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Not confirmed' })).toBeInTheDocument()
  })
})

import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aUser, json, mockFetch, renderWithProviders, urlOf } from '@/test/test-utils'
import VerifyRoute from './verify'

afterEach(() => {
  vi.unstubAllGlobals()
  window.history.replaceState(null, '', '/')
})

function visit(search: string) {
  window.history.replaceState(null, '', `/auth/verify${search}`)
  return renderWithProviders(<VerifyRoute />)
}

describe('the verification screen', () => {
  it('fails at once without a token', () => {
    const fetch = mockFetch(() => json(aUser))
    visit('')
    expect(screen.getByRole('heading', { name: 'Verification failed' })).toBeInTheDocument()
    expect(screen.getByText('No verification token found')).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
  })

  it('shows the server message and goes back home', async () => {
    mockFetch(() => json({ message: 'Invalid or expired link' }, 400))
    visit('?token=abc')
    expect(screen.getByRole('heading', { name: 'Verifying...' })).toBeInTheDocument()
    expect(screen.getByText('Please wait while we log you in')).toBeInTheDocument()
    expect(await screen.findByText('Invalid or expired link')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Back to home' }))
    expect(window.location.pathname).toBe('/')
  })

  it('sends token and invite once, says Success! and goes home after 1.5 s', async () => {
    const fetch = mockFetch(() => json(aUser))
    visit('?token=abc&invite=CODE12345678')
    expect(await screen.findByRole('heading', { name: 'Success!' })).toBeInTheDocument()
    const verifyCalls = fetch.mock.calls.filter(([url]) => urlOf(url).startsWith('/api/auth/verify'))
    expect(verifyCalls).toHaveLength(1)
    expect(verifyCalls[0]?.[0]).toBe('/api/auth/verify?token=abc&invite=CODE12345678')
    expect(window.location.pathname).toBe('/auth/verify')
    await vi.waitFor(() => expect(window.location.pathname).toBe('/'), { timeout: 2500 })
  })

  it('goes on to the page the link leads to, a page of this site', async () => {
    mockFetch(() => json(aUser))
    visit('?token=abc&next=%2Fpost%2F42')
    expect(await screen.findByText("You're logged in. Taking you back to your page...")).toBeInTheDocument()
    await vi.waitFor(() => expect(window.location.pathname).toBe('/post/42'), { timeout: 2500 })
  })

  it('never to another site: an edited link goes home', async () => {
    mockFetch(() => json(aUser))
    visit('?token=abc&next=%2F%2Fevil.example')
    expect(await screen.findByText("You're logged in. Taking you home...")).toBeInTheDocument()
    await vi.waitFor(() => expect(window.location.pathname).toBe('/'), { timeout: 2500 })
    expect(window.location.host).not.toBe('evil.example')
  })
})

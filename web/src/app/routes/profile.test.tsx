import { cleanup, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route } from 'wouter'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Profile } from '@/lib/types'
import { aPost, aProfile, aUser, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { ComposeProvider } from '@/features/posts/components/compose-provider'
import ProfileRoute from './profile'

afterEach(() => {
  vi.unstubAllGlobals()
  // unmounted first, so the router does not see the page go back to /
  cleanup()
  window.history.replaceState(null, '', '/')
})

/** Ada opens /profile/grace; the API answers Grace's profile with `profile` (or a response). */
function openGrace(profile: Profile | Response) {
  const fetch = mockFetch((url, init) => {
    if (init.method === 'DELETE') return new Response(null, { status: 204 })
    if (url === '/api/auth/me') return json(aUser)
    if (url === '/api/users/grace') return profile instanceof Response ? profile.clone() : json(profile)
    if (url.startsWith('/api/follows/')) return json({ isFollowing: false })
    return json([])
  })
  window.history.replaceState(null, '', '/profile/grace')
  renderWithProviders(
    <ComposeProvider>
      <Route path="/profile/:username" component={ProfileRoute} />
    </ComposeProvider>,
  )
  return fetch
}

describe("another member's profile", () => {
  it('moves the address to the new username when an old one answers', async () => {
    const historyLength = window.history.length
    const renamed = aProfile({ username: 'grace_h' })
    mockFetch((url) => {
      if (url === '/api/auth/me') return json(aUser)
      if (url === '/api/users/grace' || url === '/api/users/grace_h') return json(renamed)
      if (url.startsWith('/api/follows/')) return json({ isFollowing: false })
      return json([])
    })
    window.history.replaceState(null, '', '/profile/grace')
    renderWithProviders(
      <ComposeProvider>
        <Route path="/profile/:username" component={ProfileRoute} />
      </ComposeProvider>,
    )
    await vi.waitFor(() => expect(window.location.pathname).toBe('/profile/grace_h'))
    expect(await screen.findByText('@grace_h')).toBeInTheDocument()
    // Replaced, not pushed: Back does not return to the old name.
    expect(window.history.length).toBe(historyLength)
  })

  it('says who invited them, and offers the menu and the posts', async () => {
    openGrace(aProfile())
    const invited = await screen.findByText('Invited by')
    expect(invited).toHaveTextContent('Invited by @ada')
    expect(screen.getByRole('link', { name: '@ada' })).toHaveAttribute('href', '/profile/ada')
    expect(screen.getByRole('button', { name: 'More actions for @grace' })).toHaveAttribute('aria-haspopup', 'menu')
    expect(screen.getByRole('tab', { name: 'Posts' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Followers?$/ })).toHaveAttribute('href', '/profile/grace/followers')
    expect(screen.getByRole('link', { name: /Following$/ })).toHaveAttribute('href', '/profile/grace/following')
    expect(await screen.findByText('No posts yet.')).toBeInTheDocument()
  })

  it('folds a post holding a word the member mutes, as a thread does, until shown', async () => {
    mockFetch((url) => {
      if (url === '/api/auth/me') return json(aUser)
      if (url === '/api/users/grace') return json(aProfile())
      if (url.startsWith('/api/follows/')) return json({ isFollowing: false })
      if (url.startsWith('/api/users/grace/posts'))
        return json([aPost({ id: 12, content: 'Tea at four' }), aPost({ id: 11, content: 'Best coffee in town', hiddenByMutedWord: true })])
      return json([])
    })
    window.history.replaceState(null, '', '/profile/grace')
    renderWithProviders(
      <ComposeProvider>
        <Route path="/profile/:username" component={ProfileRoute} />
      </ComposeProvider>,
    )
    expect(await screen.findByText('Tea at four')).toBeInTheDocument()
    expect(screen.getByText('Hidden by a muted word —')).toBeInTheDocument()
    expect(screen.queryByText('Best coffee in town')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'show' }))
    expect(await screen.findByText('Best coffee in town')).toBeInTheDocument()
  })

  it('says "Invited by the instance" for a member the operator invited', async () => {
    openGrace(aProfile({ invitedBy: null }))
    expect(await screen.findByText('Invited by the instance')).toBeInTheDocument()
    await screen.findByText('No posts yet.')
  })

  it("shows a member who blocked you as a profile you can't view, without posts or Follow", async () => {
    const fetch = openGrace(aProfile({ isBlockedBy: true }))
    expect(await screen.findByText("You can't view this profile")).toBeInTheDocument()
    expect(screen.queryByRole('tab')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Follow/ })).not.toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).not.toContain('GET /api/users/grace/posts?limit=20&offset=0')
  })

  it('shows a member you blocked as blocked, with Unblock and no posts', async () => {
    const fetch = openGrace(aProfile({ isBlocking: true }))
    expect(await screen.findByText('You blocked @grace')).toBeInTheDocument()
    expect(screen.queryByRole('tab')).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Unblock' }))
    expect(await screen.findByText('Unblocked @grace')).toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('DELETE /api/blocks/2')
  })

  it('shows a suspended account as such, not as a missing one', async () => {
    openGrace(json({ message: 'This account is suspended' }, 404))
    expect(await screen.findByText('This account is suspended')).toBeInTheDocument()
    expect(screen.queryByText('User not found.')).not.toBeInTheDocument()
  })

  it('still says "User not found." for an unknown member', async () => {
    openGrace(json({ message: 'User not found' }, 404))
    expect(await screen.findByText('User not found.')).toBeInTheDocument()
  })

  it('tells moderators a member is suspended, and until when', async () => {
    openGrace(aProfile({ suspendedUntil: '+294247-01-10T04:00:54.775Z' }))
    expect(await screen.findByText('Suspended until lifted')).toBeInTheDocument()
    await screen.findByText('No posts yet.')
  })
})

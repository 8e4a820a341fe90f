import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Post } from '@/lib/types'
import { aPost, aProfile, aUser, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { ComposeProvider } from '@/features/posts/components/compose-provider'
import DiscoverRoute from './discover'

beforeEach(() => {
  window.history.replaceState(null, '', '/discover')
})

afterEach(() => {
  vi.unstubAllGlobals()
  cleanup()
})

const rustPost = aPost({
  id: 41,
  content: 'Learning #RustLang with @grace',
  entities: [
    { type: 'hashtag', start: 9, end: 18, value: 'RustLang' },
    { type: 'mention', start: 24, end: 30, value: 'grace' },
  ],
})

/** Ada on Discover; `posts` answers a post search by its query and offset. */
function openDiscover(posts: (query: string, offset: number) => Post[] | Response = () => [rustPost]) {
  const fetch = mockFetch((url) => {
    const { pathname, searchParams } = new URL(url, 'http://localhost')
    if (pathname === '/api/auth/me') return json(aUser)
    if (pathname === '/api/users/search') return json([aProfile()])
    if (pathname === '/api/posts/search') {
      const answer = posts(searchParams.get('q') ?? '', Number(searchParams.get('offset')))
      return answer instanceof Response ? answer.clone() : json(answer)
    }
    if (pathname.startsWith('/api/follows/')) return json({ isFollowing: false })
    return json([])
  })
  renderWithProviders(
    <ComposeProvider>
      <DiscoverRoute />
    </ComposeProvider>,
  )
  return fetch
}

async function openPostsTab() {
  await userEvent.click(await screen.findByRole('tab', { name: 'Posts' }))
  return screen.getByRole('searchbox', { name: 'Search posts...' })
}

describe('Discover', () => {
  it('searches people by default, as before, with Trending and Who to follow below', async () => {
    openDiscover()
    const box = await screen.findByRole('searchbox', { name: 'Search for users...' })
    expect(box).toHaveAttribute('placeholder', 'Search for users...')
    expect(screen.getByRole('tab', { name: 'People' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('region', { name: 'Trending' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Who to follow' })).toBeInTheDocument()

    await userEvent.type(box, 'gra')
    const results = await screen.findByRole('region', { name: 'Search Results' })
    expect(await within(results).findByText('@grace')).toBeInTheDocument()
  })

  it('moves between the tabs with the arrow keys, and the box asks for what the tab searches', async () => {
    openDiscover()
    await userEvent.click(await screen.findByRole('tab', { name: 'People' }))
    await userEvent.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Posts' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tab', { name: 'Posts' })).toHaveFocus()
    expect(screen.getByRole('searchbox', { name: 'Search posts...' })).toHaveAttribute('placeholder', 'Search posts...')
    await userEvent.keyboard('{ArrowLeft}')
    expect(screen.getByRole('searchbox', { name: 'Search for users...' })).toBeInTheDocument()
  })

  it("finds posts and marks the query's words, the last as the start of a word", async () => {
    const fetch = openDiscover()
    await userEvent.type(await openPostsTab(), 'rust')
    const post = await screen.findByRole('article', { name: 'Grace Hopper' })
    const hashtag = within(post).getByRole('link', { name: '#RustLang' })
    expect(hashtag).toHaveAttribute('href', '/tag/RustLang')
    expect(hashtag.querySelector('mark')).toHaveTextContent(/^Rust$/)
    expect(within(post).getByRole('link', { name: '@grace' })).toHaveAttribute('href', '/profile/grace')
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('GET /api/posts/search?q=rust&limit=20&offset=0')
    expect(requestsOf(fetch).map(({ call }) => call).filter((call) => call.startsWith('GET /api/users/search'))).toEqual([])
  })

  it('keeps the words when switching tabs, and searches the other tab with them', async () => {
    const fetch = openDiscover()
    await userEvent.type(await screen.findByRole('searchbox', { name: 'Search for users...' }), 'grace')
    await screen.findByText('@grace')
    await openPostsTab()
    expect(screen.getByRole('searchbox', { name: 'Search posts...' })).toHaveValue('grace')
    await screen.findByRole('article', { name: 'Grace Hopper' })
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('GET /api/posts/search?q=grace&limit=20&offset=0')
  })

  it('says when no post matches', async () => {
    openDiscover(() => [])
    await userEvent.type(await openPostsTab(), 'zebra')
    expect(await screen.findByText('No posts match “zebra”.')).toBeInTheDocument()
  })

  it("shows the server's reason for a query it refuses", async () => {
    openDiscover(() => json({ message: 'A search needs at least one word to find' }, 400))
    await userEvent.type(await openPostsTab(), '-spam')
    expect(await screen.findByRole('alert')).toHaveTextContent('A search needs at least one word to find')
  })

  it('pages the results with "Load more posts"', async () => {
    const fetch = openDiscover((_, offset) => Array.from({ length: 20 }, (_, i) => aPost({ id: offset + i + 1, content: `tea ${offset + i + 1}` })))
    await userEvent.type(await openPostsTab(), 'tea')
    await userEvent.click(await screen.findByRole('button', { name: 'Load more posts' }))
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(40))
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('GET /api/posts/search?q=tea&limit=20&offset=20')
  })

  it('keeps the words and the tab in the address, typing in place of the entry rather than one per key', async () => {
    openDiscover()
    const entries = window.history.length
    await userEvent.type(await openPostsTab(), 'rust')
    await screen.findByRole('article', { name: 'Grace Hopper' })
    expect(window.location.pathname + window.location.search).toBe('/discover?q=rust&tab=posts')
    expect(window.history.length, 'one entry for the tab, none for the keys').toBe(entries + 1)

    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search posts...' }))
    expect(window.location.search).toBe('?tab=posts')
  })

  it("opens with the address's words and tab, as after a reload or from a shared link", async () => {
    window.history.replaceState(null, '', '/discover?q=rust&tab=posts')
    const fetch = openDiscover()
    expect(await screen.findByRole('searchbox', { name: 'Search posts...' })).toHaveValue('rust')
    expect(screen.getByRole('tab', { name: 'Posts' })).toHaveAttribute('aria-selected', 'true')
    await screen.findByRole('article', { name: 'Grace Hopper' })
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('GET /api/posts/search?q=rust&limit=20&offset=0')
  })
})

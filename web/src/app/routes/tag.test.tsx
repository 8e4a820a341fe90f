import { cleanup, fireEvent, screen } from '@testing-library/react'
import { Route } from 'wouter'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Post, Tag } from '@/lib/types'
import { aPost, aUser, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { ComposeProvider } from '@/features/posts/components/compose-provider'
import TagRoute from './tag'

afterEach(() => {
  vi.unstubAllGlobals()
  cleanup()
  window.history.replaceState(null, '', '/')
})

const tagged = aPost({
  id: 31,
  content: 'Learning #rustlang today',
  entities: [{ type: 'hashtag', start: 9, end: 18, value: 'rustlang' }],
})

/** Ada opens `path`; the server answers the tag with `tag` and its posts with `posts`. */
function openTag(path: string, tag: Tag | Response, posts: Post[] = [tagged]) {
  const fetch = mockFetch((url) => {
    if (url === '/api/auth/me') return json(aUser)
    if (url.startsWith('/api/tags/') && url.includes('/posts?')) return json(posts)
    if (url.endsWith('/follow')) return json({ name: 'RustLang', followedAt: '2026-11-27T12:00:00Z' })
    if (url.startsWith('/api/tags/')) return tag instanceof Response ? tag.clone() : json(tag)
    return json([])
  })
  window.history.replaceState(null, '', path)
  renderWithProviders(
    <ComposeProvider>
      <Route path="/tag/:name" component={TagRoute} />
    </ComposeProvider>,
  )
  return fetch
}

describe('a tag page', () => {
  it("names the tag as first written, counts its week, and lists its posts newest first", async () => {
    const fetch = openTag('/tag/rustlang', { name: 'RustLang', postCount: 12, peopleCount: 5, isFollowing: false })
    expect(await screen.findByRole('heading', { level: 1, name: '#RustLang' })).toBeInTheDocument()
    expect(screen.getByText('12 posts · 5 people this week')).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: '#rustlang' })).toHaveAttribute('href', '/tag/rustlang')
    expect(requestsOf(fetch).map(({ call }) => call)).toEqual(
      expect.arrayContaining(['GET /api/tags/rustlang', 'GET /api/tags/rustlang/posts?limit=20&offset=0']),
    )
  })

  it('counts one post and one person in the singular', async () => {
    openTag('/tag/RustLang', { name: 'RustLang', postCount: 1, peopleCount: 1, isFollowing: false })
    expect(await screen.findByText('1 post · 1 person this week')).toBeInTheDocument()
  })

  it('says when nobody has posted with the tag yet', async () => {
    openTag('/tag/Quiet', { name: 'Quiet', postCount: 0, peopleCount: 0, isFollowing: false }, [])
    expect(await screen.findByText('No posts with #Quiet yet.')).toBeInTheDocument()
    expect(screen.getByText('0 posts · 0 people this week')).toBeInTheDocument()
  })

  it("offers more of a tag's posts after a full page", async () => {
    openTag('/tag/RustLang', { name: 'RustLang', postCount: 30, peopleCount: 9, isFollowing: false }, Array.from({ length: 20 }, (_, i) => aPost({ id: i + 1 })))
    expect(await screen.findByRole('button', { name: 'Load more posts' })).toBeInTheDocument()
  })

  it('follows the tag with its button, which then says Following', async () => {
    const fetch = openTag('/tag/rustlang', { name: 'RustLang', postCount: 12, peopleCount: 5, isFollowing: false })
    const follow = await screen.findByRole('button', { name: /^Follow\s*#RustLang$/ })
    expect(follow).toHaveAttribute('aria-pressed', 'false')
    fireEvent.click(follow)
    const following = await screen.findByRole('button', { name: /^Following\s*#RustLang$/ })
    expect(following).toHaveTextContent(/^Following/)
    expect(following).toHaveAttribute('aria-pressed', 'true')
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('POST /api/tags/RustLang/follow')
  })

  it("gives the server's reason for a name that is not a tag, and asks for no posts", async () => {
    const fetch = openTag('/tag/no-dashes', json({ message: 'A tag is 1 to 50 letters, digits or underscores' }, 400))
    expect(await screen.findByRole('alert')).toHaveTextContent('A tag is 1 to 50 letters, digits or underscores')
    expect(requestsOf(fetch).map(({ call }) => call)).not.toContain('GET /api/tags/no-dashes/posts?limit=20&offset=0')
  })
})

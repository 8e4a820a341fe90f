import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { InfiniteData } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import type { Post } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'
import { FakeEventSource } from '@/test/fake-event-source'
import { aPost, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { LiveProvider } from './live-provider'
import { NewPostsButton } from './new-posts-button'

const loaded = [aPost({ id: 3 }), aPost({ id: 2 })]

/** The Friends feed with posts 3 and 2 loaded, under the button; the server's first page holds `firstPage`. */
function renderFeed(firstPage: Post[] = loaded) {
  const fetch = mockFetch(() => json(firstPage))
  const queryClient = createQueryClient()
  queryClient.setQueryData<InfiniteData<Post[], number>>(postKeys.feed(), { pages: [loaded, [aPost({ id: 1 })]], pageParams: [0, 20] })
  renderWithProviders(
    <LiveProvider>
      <NewPostsButton />
    </LiveProvider>,
    queryClient,
  )
  return { fetch, queryClient }
}

/** The server says posts `postIds` reached the member's Friends timeline. */
function feedEvent(...postIds: number[]) {
  act(() => FakeEventSource.latest.emit('feed', { postIds }))
}

const button = () => screen.queryByRole('button', { name: /^Show \d+ new posts?$/ })
const announcer = () => document.querySelector('[aria-live="polite"]')

function preferReducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query === '(prefers-reduced-motion: reduce)',
    addEventListener: () => {},
    removeEventListener: () => {},
  }))
}

const scrollTo = vi.fn()

beforeEach(() => {
  scrollTo.mockClear()
  FakeEventSource.reset()
  vi.stubGlobal('EventSource', FakeEventSource)
  vi.stubGlobal('scrollTo', scrollTo)
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the new posts button', () => {
  it('is not there before new posts arrive', () => {
    renderFeed()
    expect(button()).not.toBeInTheDocument()
    expect(announcer()).toHaveTextContent('')
  })

  it('says "Show 1 new post" for one post, in the singular', () => {
    renderFeed()
    feedEvent(9)
    expect(screen.getByRole('button', { name: 'Show 1 new post' })).toBeInTheDocument()
  })

  it('counts distinct posts the feed has not loaded, in the plural past one', () => {
    renderFeed()
    feedEvent(9, 3)
    feedEvent(9, 8, 1)
    expect(screen.getByRole('button', { name: 'Show 2 new posts' })).toBeInTheDocument()
  })

  it('does not appear for posts the feed already shows', () => {
    renderFeed()
    feedEvent(3, 2)
    expect(button()).not.toBeInTheDocument()
  })

  it('is announced once as it appears, not again on every event', () => {
    renderFeed()
    feedEvent(9)
    expect(announcer()).toHaveTextContent('1 new post')
    feedEvent(8)
    feedEvent(7)
    expect(screen.getByRole('button', { name: 'Show 3 new posts' })).toBeInTheDocument()
    expect(announcer()).toHaveTextContent('1 new post')
  })

  it('brings the posts in: the first page asked for again, the page back at the top, the button gone', async () => {
    const newPost = aPost({ id: 9, content: 'Fresh from a friend' })
    const { fetch, queryClient } = renderFeed([newPost, ...loaded])
    feedEvent(9)
    const show = screen.getByRole('button', { name: 'Show 1 new post' })
    await userEvent.click(show)

    expect(button()).not.toBeInTheDocument()
    expect(announcer()).toHaveTextContent('')
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' })
    await vi.waitFor(() => expect(requestsOf(fetch)).toEqual([{ call: 'GET /api/posts/feed?limit=20&offset=0' }]))
    await vi.waitFor(() =>
      expect(queryClient.getQueryData<InfiniteData<Post[]>>(postKeys.feed())?.pages.map((page) => page.map((p) => p.id))).toEqual([
        [9, 3, 2],
      ]),
    )
    // Focus stays at the top of the feed, not lost with the button.
    expect(document.activeElement).not.toBe(document.body)
  })

  it('is a button a keyboard reaches and presses', async () => {
    renderFeed()
    feedEvent(9)
    await userEvent.tab()
    expect(screen.getByRole('button', { name: 'Show 1 new post' })).toHaveFocus()
    await userEvent.keyboard('{Enter}')
    expect(button()).not.toBeInTheDocument()
  })

  it('jumps to the top without scrolling smoothly for a member who prefers reduced motion', async () => {
    preferReducedMotion(true)
    renderFeed()
    feedEvent(9)
    await userEvent.click(screen.getByRole('button', { name: 'Show 1 new post' }))
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'auto' })
  })

  it('comes back when more posts arrive after the feed was brought up to date', async () => {
    renderFeed([aPost({ id: 9 }), ...loaded])
    feedEvent(9)
    await userEvent.click(screen.getByRole('button', { name: 'Show 1 new post' }))
    feedEvent(9)
    await vi.waitFor(() => expect(button()).not.toBeInTheDocument())
    feedEvent(10)
    expect(screen.getByRole('button', { name: 'Show 1 new post' })).toBeInTheDocument()
  })
})

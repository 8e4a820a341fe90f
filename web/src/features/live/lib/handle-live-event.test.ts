import { MutationObserver, QueryObserver, type InfiniteData } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DRAFT_KEY_PREFIX } from '@/lib/member-storage'
import { createQueryClient } from '@/lib/query-client'
import type { Notification, Post } from '@/lib/types'
import { sendToLogin } from '@/lib/unauthorized'
import { authKeys, messageKeys, notificationKeys, postKeys } from '@/lib/query-keys'
import { aPost, json, mockFetch, requestsOf } from '@/test/test-utils'
import { handleLiveEvent } from './handle-live-event'

vi.mock('@/lib/unauthorized', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/unauthorized')>()),
  sendToLogin: vi.fn(),
}))

const grace = { id: 2, username: 'grace', displayName: 'Grace Hopper', profileImageUrl: null }
const notification = (id: number): Notification => ({
  id,
  groupKey: `n-${id}`,
  count: 1,
  actors: [grace],
  type: 'follow',
  isRead: false,
  createdAt: '2026-11-20T10:00:00Z',
  actor: grace,
})

let queryClient = createQueryClient()
const addNewFeedPosts = vi.fn()
const handle = (event: Parameters<typeof handleLiveEvent>[0]) => handleLiveEvent(event, { queryClient, addNewFeedPosts })

/** A screen showing the query `queryKey` (no fetch of its own). */
function showOnScreen(queryKey: readonly unknown[]) {
  return new QueryObserver(queryClient, { queryKey, enabled: false }).subscribe(() => {})
}

/** The thread screen of post `id`, which reads its thread when told to. */
function showThreadOnScreen(id: number) {
  const queryFn = async () => (await fetch(`/api/posts/${id}/thread`)).json() as Promise<unknown>
  return new QueryObserver(queryClient, { queryKey: postKeys.thread(id), queryFn, staleTime: Infinity }).subscribe(() => {})
}

const feedOf = (...posts: Post[]): InfiniteData<Post[], number> => ({ pages: [posts], pageParams: [0] })

beforeEach(() => {
  queryClient = createQueryClient()
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.clearAllMocks()
})

describe('a live event', () => {
  it('unread-count: sets the unread count every badge and title reads', () => {
    handle({ type: 'unread-count', count: 4 })
    expect(queryClient.getQueryData(notificationKeys.unreadCount())).toEqual({ count: 4 })
  })

  it('notification: asks for the first page and puts the new ones on top of a list on screen', async () => {
    const fetch = mockFetch(() => json([notification(3), notification(2), notification(1)]))
    queryClient.setQueryData(notificationKeys.list(), [notification(2), notification(1)])
    showOnScreen(notificationKeys.list())
    handle({ type: 'notification' })
    await vi.waitFor(() =>
      expect(queryClient.getQueryData<Notification[]>(notificationKeys.list())?.map((n) => n.id)).toEqual([3, 2, 1]),
    )
    expect(requestsOf(fetch)).toEqual([{ call: 'GET /api/notifications?grouped=true&limit=50' }])
  })

  it('notification: only marks a list no screen shows as stale, and asks for nothing', async () => {
    const fetch = mockFetch(() => json([]))
    queryClient.setQueryData(notificationKeys.list(), [notification(1)])
    handle({ type: 'notification' })
    await vi.waitFor(() => expect(queryClient.getQueryState(notificationKeys.list())?.isInvalidated).toBe(true))
    handle({ type: 'notification' })
    expect(fetch).not.toHaveBeenCalled()
  })

  it('feed: hands the post ids to the new-posts button', () => {
    handle({ type: 'feed', postIds: [8, 9] })
    expect(addNewFeedPosts).toHaveBeenCalledWith([8, 9])
  })

  it("post-counts: updates the post's counts wherever it is cached, reposts of it too, and keeps the member's own like", () => {
    const post = aPost({ id: 5, likeCount: 1, repostCount: 0, replyCount: 0, isLiked: true })
    const repost = aPost({ id: 6, repostOfId: 5, repostOf: post })
    queryClient.setQueryData(postKeys.thread(5), { post, replies: [], ancestors: [] })
    queryClient.setQueryData(postKeys.feed(), feedOf(repost, aPost({ id: 7, likeCount: 3 })))

    handle({ type: 'post-counts', postId: 5, likeCount: 2, repostCount: 1, replyCount: 4 })

    const counts = { likeCount: 2, repostCount: 1, replyCount: 4, isLiked: true }
    expect(queryClient.getQueryData<{ post: Post }>(postKeys.thread(5))?.post).toMatchObject(counts)
    const [shownRepost, other] = queryClient.getQueryData<InfiniteData<Post[]>>(postKeys.feed())?.pages[0] ?? []
    expect(shownRepost?.repostOf).toMatchObject(counts)
    expect(other?.likeCount).toBe(3)
  })

  it("post-counts: a new reply refetches the open thread's replies, so it shows without a reload", async () => {
    const post = aPost({ id: 5, replyCount: 0 })
    const reply = aPost({ id: 8, replyToId: 5, content: 'A reply from Grace' })
    const fetch = mockFetch((url) =>
      url === '/api/posts/5/thread' ? json({ post: { ...post, replyCount: 1 }, replies: [reply], ancestors: [] }) : json([]),
    )
    queryClient.setQueryData(postKeys.thread(5), { post, replies: [], ancestors: [] })
    showThreadOnScreen(5)

    handle({ type: 'post-counts', postId: 5, likeCount: 0, repostCount: 0, replyCount: 1 })

    await vi.waitFor(() => expect(queryClient.getQueryData<{ replies: Post[] }>(postKeys.thread(5))?.replies).toEqual([reply]))
    expect(requestsOf(fetch)).toEqual([{ call: 'GET /api/posts/5/thread' }])
  })

  it('post-counts: a like alone asks for nothing more', () => {
    const fetch = mockFetch(() => json([]))
    queryClient.setQueryData(postKeys.thread(5), { post: aPost({ id: 5, replyCount: 2 }), replies: [], ancestors: [] })
    showThreadOnScreen(5)
    handle({ type: 'post-counts', postId: 5, likeCount: 9, repostCount: 0, replyCount: 2 })
    expect(queryClient.getQueryState(postKeys.thread(5))?.isInvalidated).toBe(false)
    expect(fetch).not.toHaveBeenCalled()
  })

  it("post-card: reads again the lists holding the member's new post, so its card shows without a reload", () => {
    const mine = aPost({ id: 5, card: null })
    queryClient.setQueryData(postKeys.feed(), feedOf(mine, aPost({ id: 7 })))
    queryClient.setQueryData(postKeys.byUser('ada'), feedOf(aPost({ id: 6, repostOfId: 5, repostOf: mine })))
    queryClient.setQueryData(postKeys.forYou(), feedOf(aPost({ id: 7 })))
    handle({ type: 'post-card', postId: 5 })
    const invalidated = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated
    expect(invalidated(postKeys.feed())).toBe(true)
    expect(invalidated(postKeys.byUser('ada'))).toBe(true)
    expect(invalidated(postKeys.forYou())).toBe(false)
  })

  it("message: reads again that conversation, its messages, the lists and the unread count, not other conversations", () => {
    for (const key of [
      messageKeys.conversation(4),
      messageKeys.messages(4),
      messageKeys.list('inbox'),
      messageKeys.unreadCount(),
      messageKeys.messages(9),
    ]) {
      queryClient.setQueryData(key, {})
    }
    handle({ type: 'message', conversationId: 4 })
    const invalidated = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated
    expect(invalidated(messageKeys.conversation(4))).toBe(true)
    expect(invalidated(messageKeys.messages(4))).toBe(true)
    expect(invalidated(messageKeys.list('inbox'))).toBe(true)
    expect(invalidated(messageKeys.unreadCount())).toBe(true)
    expect(invalidated(messageKeys.messages(9))).toBe(false)
  })

  it('reset: refetches notifications, the unread count and the Friends feed, not For You', () => {
    queryClient.setQueryData(notificationKeys.list(), [notification(1)])
    queryClient.setQueryData(notificationKeys.unreadCount(), { count: 1 })
    queryClient.setQueryData(postKeys.feed(), feedOf(aPost()))
    queryClient.setQueryData(postKeys.forYou(), feedOf(aPost()))
    queryClient.setQueryData(messageKeys.unreadCount(), { count: 1 })
    handle({ type: 'reset' })
    const invalidated = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated
    expect(invalidated(messageKeys.unreadCount())).toBe(true)
    expect(invalidated(notificationKeys.list())).toBe(true)
    expect(invalidated(notificationKeys.unreadCount())).toBe(true)
    expect(invalidated(postKeys.feed())).toBe(true)
    expect(invalidated(postKeys.forYou())).toBe(false)
  })

  it('session-ended: takes the way of a 401, to the landing page', () => {
    handle({ type: 'session-ended' })
    expect(sendToLogin).toHaveBeenCalledTimes(1)
  })

  it("session-ended: forgets the member's drafts in this browser, even while the tab logs out", () => {
    localStorage.setItem(`${DRAFT_KEY_PREFIX}1:home`, '{"content":"A secret half-thought"}')
    const logout = new MutationObserver(queryClient, { mutationKey: authKeys.logout(), mutationFn: () => new Promise<void>(() => {}) })
    void logout.mutate()
    handle({ type: 'session-ended' })
    expect(localStorage.length).toBe(0)
  })

  it("session-ended: leaves a tab that is logging out to its own way", () => {
    const logout = new MutationObserver(queryClient, { mutationKey: authKeys.logout(), mutationFn: () => new Promise<void>(() => {}) })
    void logout.mutate()
    handle({ type: 'session-ended' })

    queryClient = createQueryClient()
    queryClient.setQueryData(authKeys.me(), null)
    handle({ type: 'session-ended' })

    expect(sendToLogin).not.toHaveBeenCalled()
  })
})

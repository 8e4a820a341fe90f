import type { QueryClient } from '@tanstack/react-query'
import type { Post, Thread } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'

type PostUpdate = (post: Post) => Post

function updateOne(post: Post, id: number, update: PostUpdate): Post {
  let next = post.id === id ? update(post) : post
  if (next.repostOf && next.repostOf.id === id) next = { ...next, repostOf: update(next.repostOf) }
  return next
}

/** Applies `update` to every copy of post `id` in a cached value: a list, pages of lists, or a thread. */
export function mapPostsIn(data: unknown, id: number, update: PostUpdate): unknown {
  if (!data || typeof data !== 'object') return data
  if (Array.isArray(data)) {
    return (data as unknown[]).map((item) => (item && typeof item === 'object' && 'id' in item ? updateOne(item as Post, id, update) : item))
  }
  const record = data as Record<string, unknown>
  if (Array.isArray(record.pages)) {
    return { ...record, pages: record.pages.map((page) => mapPostsIn(page, id, update)) }
  }
  if (record.post && typeof record.post === 'object') {
    return {
      ...record,
      post: updateOne(record.post as Post, id, update),
      replies: mapPostsIn(record.replies ?? [], id, update),
      ancestors: mapPostsIn(record.ancestors ?? [], id, update),
    }
  }
  return data
}

export function updatePostEverywhere(queryClient: QueryClient, id: number, update: PostUpdate) {
  queryClient.setQueriesData({ queryKey: postKeys.all }, (data: unknown) => mapPostsIn(data, id, update))
}

function dropFromList(list: unknown, id: number): unknown {
  if (!Array.isArray(list)) return list
  return list.filter((item: Post) => item.id !== id && item.repostOf?.id !== id)
}

/** Removes post `id` (and reposts of it) from every cached list. */
export function removePostEverywhere(queryClient: QueryClient, id: number) {
  queryClient.setQueriesData({ queryKey: postKeys.all }, (data: unknown) => {
    if (!data || typeof data !== 'object') return data
    if (Array.isArray(data)) return dropFromList(data, id)
    const record = data as Record<string, unknown>
    if (Array.isArray(record.pages)) return { ...record, pages: record.pages.map((page) => dropFromList(page, id)) }
    if (record.post) return { ...record, replies: dropFromList(record.replies, id) }
    return data
  })
}

/** Whether a cached value (a list, pages of lists, or a thread) holds post `id`, itself or through a repost of it. */
function holdsPost(data: unknown, id: number): boolean {
  let held = false
  mapPostsIn(data, id, (post) => {
    held = true
    return post
  })
  return held
}

/**
 * Reads again every cached list and thread that holds post `id` (a new post's link card came after
 * its author's screens got the post): those on screen at once, the others when next shown.
 */
export function refetchPostsHolding(queryClient: QueryClient, id: number) {
  for (const [key, data] of queryClient.getQueriesData({ queryKey: postKeys.all })) {
    if (holdsPost(data, id)) void queryClient.invalidateQueries({ queryKey: key, exact: true })
  }
}

/**
 * Reads again the open threads of post `id` (shown itself or through a repost of it) and their
 * later replies: a count says a reply came or went, but only the thread call has the replies.
 */
export function refetchThreadsOf(queryClient: QueryClient, id: number) {
  for (const [key, data] of queryClient.getQueriesData<Thread>({ queryKey: postKeys.threads() })) {
    const post = data?.post
    if (!post || (post.id !== id && post.repostOf?.id !== id)) continue
    void queryClient.invalidateQueries({ queryKey: key, exact: true })
    void queryClient.invalidateQueries({ queryKey: postKeys.replies(post.id) })
  }
}

/** The reply count of post `id` in an open thread of it, if one is cached. */
export function threadReplyCount(queryClient: QueryClient, id: number): number | undefined {
  for (const [, data] of queryClient.getQueriesData<Thread>({ queryKey: postKeys.threads() })) {
    const post = data?.post.repostOf ?? data?.post
    if (post?.id === id) return post.replyCount
  }
  return undefined
}

import { useInfiniteQuery } from '@tanstack/react-query'
import { THREAD_REPLIES } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'
import { postPagesOptions } from './list-query'

/** A thread's replies after the ones the thread call answers, oldest first. */
export const moreRepliesQueryOptions = (postId: number) =>
  postPagesOptions(postKeys.replies(postId), `/api/posts/${postId}/replies`, THREAD_REPLIES)

export function useMoreReplies(postId: number, enabled: boolean) {
  return useInfiniteQuery({ ...moreRepliesQueryOptions(postId), enabled })
}

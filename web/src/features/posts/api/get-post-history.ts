import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { PostVersion } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'

/** A post's earlier texts, newest first: the first 50 (an hour of edits rarely makes more). */
export const getPostHistory = (postId: number) => api.get<PostVersion[]>(`/api/posts/${postId}/history?limit=50`)

export const postHistoryQueryOptions = (postId: number) =>
  queryOptions({ queryKey: postKeys.history(postId), queryFn: () => getPostHistory(postId) })

export function usePostHistory(postId: number, enabled = true) {
  return useQuery({ ...postHistoryQueryOptions(postId), enabled })
}

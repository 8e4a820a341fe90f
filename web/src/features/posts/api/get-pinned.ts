import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Post } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'

/** The posts a member pinned to their profile (at most 5), newest pin first. */
export function usePinnedPosts(username: string) {
  return useQuery({
    queryKey: postKeys.pinnedBy(username),
    queryFn: () => api.get<Post[]>(`/api/users/${encodeURIComponent(username)}/pinned`),
  })
}

import { useInfiniteQuery } from '@tanstack/react-query'
import { pagedQueryOptions } from '@/lib/paged-query'
import type { ListedUser } from '@/lib/types'
import { userKeys, type FollowList } from '@/lib/query-keys'

export const followListQueryOptions = (username: string, list: FollowList) =>
  pagedQueryOptions<ListedUser>(userKeys.followList(username, list), `/api/users/${encodeURIComponent(username)}/${list}`)

/** A profile's followers or the people it follows, a page at a time. */
export function useFollowList(username: string, list: FollowList) {
  return useInfiniteQuery(followListQueryOptions(username, list))
}

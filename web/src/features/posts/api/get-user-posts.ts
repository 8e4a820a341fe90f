import { useInfiniteQuery } from '@tanstack/react-query'
import { postKeys, type ProfilePostsTab } from '@/lib/query-keys'
import { postPagesOptions } from './list-query'

/** A profile tab's posts, paged by the server: `posts` (no replies), `replies` or `media`. */
export const userPostsQueryOptions = (username: string, tab: ProfilePostsTab = 'posts') =>
  postPagesOptions(postKeys.byUser(username, tab), `/api/users/${encodeURIComponent(username)}/${tab}`)

export function useUserPosts(username: string, tab: ProfilePostsTab = 'posts', enabled = true) {
  return useInfiniteQuery({ ...userPostsQueryOptions(username, tab), enabled })
}

import { useInfiniteQuery } from '@tanstack/react-query'
import { postKeys } from './keys'
import { postPagesOptions } from './list-query'

export const userPostsQueryOptions = (username: string) =>
  postPagesOptions(postKeys.byUser(username), `/api/users/${encodeURIComponent(username)}/posts`)

export function useUserPosts(username: string) {
  return useInfiniteQuery(userPostsQueryOptions(username))
}

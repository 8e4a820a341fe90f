import { useInfiniteQuery } from '@tanstack/react-query'
import { postKeys } from '@/lib/query-keys'
import { postPagesOptions } from './list-query'

/** Posts the member liked, newest like first. */
export const userLikesQueryOptions = (username: string) =>
  postPagesOptions(postKeys.likedBy(username), `/api/users/${encodeURIComponent(username)}/likes`)

export function useUserLikes(username: string, enabled = true) {
  return useInfiniteQuery({ ...userLikesQueryOptions(username), enabled })
}

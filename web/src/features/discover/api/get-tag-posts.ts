import { useInfiniteQuery } from '@tanstack/react-query'
import { postKeys } from '@/lib/query-keys'
import { postPagesOptions } from '@/features/posts'

/** A tag's posts, newest first, paged like a profile's. */
export const tagPostsQueryOptions = (name: string) =>
  postPagesOptions(postKeys.byTag(name), `/api/tags/${encodeURIComponent(name)}/posts`)

export function useTagPosts(name: string, enabled = true) {
  return useInfiniteQuery({ ...tagPostsQueryOptions(name), enabled })
}

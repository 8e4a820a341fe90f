import { useInfiniteQuery } from '@tanstack/react-query'
import { postKeys } from '@/lib/query-keys'
import { postPagesOptions } from '@/features/posts'

/** Posts matching a search (the server's query language), newest first. */
export const searchPostsQueryOptions = (query: string) =>
  postPagesOptions(postKeys.search(query), `/api/posts/search?q=${encodeURIComponent(query)}`)

/** Runs only for a non-empty query. */
export function useSearchPosts(query: string) {
  const trimmed = query.trim()
  return useInfiniteQuery({ ...searchPostsQueryOptions(trimmed), enabled: trimmed.length > 0 })
}

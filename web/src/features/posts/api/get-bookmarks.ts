import { useInfiniteQuery } from '@tanstack/react-query'
import { postKeys } from '@/lib/query-keys'
import { postPagesOptions } from './list-query'

/** The member's bookmarks, newest bookmark first; only they see them. */
export const bookmarksQueryOptions = () => postPagesOptions(postKeys.bookmarks(), '/api/bookmarks')

export function useBookmarks() {
  return useInfiniteQuery(bookmarksQueryOptions())
}

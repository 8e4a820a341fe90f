import { api } from '@/lib/api-client'
import type { Post } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'
import { usePostToggle } from './toggle-post'

/** Bookmark and undo; the Bookmarks list is read again after the last click succeeded. */
export function useToggleBookmark(postId: number) {
  return usePostToggle({
    name: 'bookmark',
    postId,
    send: (bookmark) =>
      bookmark ? api.post<Post>(`/api/posts/${postId}/bookmark`) : api.delete<Post>(`/api/posts/${postId}/bookmark`),
    mark: (post, bookmark) => ({ ...post, isBookmarked: bookmark }),
    written: (post, updated) => ({ ...post, isBookmarked: updated.isBookmarked }),
    succeeded: (queryClient) => void queryClient.invalidateQueries({ queryKey: postKeys.bookmarks(), refetchType: 'none' }),
    errorDescription: 'Failed to update bookmark. Please try again.',
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Post } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { postKeys } from '@/lib/query-keys'
import { updatePostEverywhere } from './post-cache'

export interface ToggleBookmarkInput {
  postId: number
  bookmark: boolean
}

export const toggleBookmark = ({ postId, bookmark }: ToggleBookmarkInput) =>
  bookmark ? api.post<Post>(`/api/posts/${postId}/bookmark`) : api.delete<Post>(`/api/posts/${postId}/bookmark`)

/**
 * Optimistic bookmark, as the like toggle (toggle-like.ts): the mark changes at once and reverts
 * on failure; clicks on one post run one after another, and only the last answer is written
 * back. The Bookmarks list is read again once the clicks settle.
 */
export function useToggleBookmark(postId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationKey: ['bookmark', postId],
    scope: { id: `bookmark-${postId}` },
    mutationFn: (bookmark: boolean) => toggleBookmark({ postId, bookmark }),
    onMutate: (bookmark) => {
      updatePostEverywhere(queryClient, postId, (post) => ({ ...post, isBookmarked: bookmark }))
    },
    onError: (error, bookmark) => {
      updatePostEverywhere(queryClient, postId, (post) => ({ ...post, isBookmarked: !bookmark }))
      if (!handleUnauthorized(error))
        toast({ title: 'Error', description: 'Failed to update bookmark. Please try again.', variant: 'destructive' })
    },
    onSuccess: (updated) => {
      if (updated && queryClient.isMutating({ mutationKey: ['bookmark', postId] }) <= 1) {
        updatePostEverywhere(queryClient, postId, (post) => ({ ...post, isBookmarked: updated.isBookmarked }))
      }
    },
    onSettled: () => {
      if (queryClient.isMutating({ mutationKey: ['bookmark', postId] }) <= 1)
        void queryClient.invalidateQueries({ queryKey: postKeys.bookmarks(), refetchType: 'none' })
    },
  })
}

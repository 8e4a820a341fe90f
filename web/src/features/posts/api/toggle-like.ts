import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Post } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { updatePostEverywhere } from './post-cache'

export interface ToggleLikeInput {
  postId: number
  like: boolean
}

export const toggleLike = ({ postId, like }: ToggleLikeInput) =>
  like ? api.post<Post>(`/api/posts/${postId}/like`) : api.delete<Post>(`/api/posts/${postId}/like`)

export const DEFAULT_LIKE_ERROR = 'Failed to update like. Please try again.'

/**
 * Optimistic like: flag and count change at once and revert on failure.
 * Clicks on one post run one after another (mutation scope), and only the last answer
 * writes the server's numbers back, so quick clicks never race.
 */
export function useToggleLike(postId: number, errorDescription: string = DEFAULT_LIKE_ERROR) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationKey: ['like', postId],
    scope: { id: `like-${postId}` },
    mutationFn: (like: boolean) => toggleLike({ postId, like }),
    onMutate: (like) => {
      updatePostEverywhere(queryClient, postId, (post) =>
        post.isLiked === like ? post : { ...post, isLiked: like, likeCount: Math.max(0, post.likeCount + (like ? 1 : -1)) },
      )
    },
    onError: (error, like) => {
      updatePostEverywhere(queryClient, postId, (post) =>
        post.isLiked !== like ? post : { ...post, isLiked: !like, likeCount: Math.max(0, post.likeCount + (like ? -1 : 1)) },
      )
      if (!handleUnauthorized(error)) toast({ title: 'Error', description: errorDescription, variant: 'destructive' })
    },
    onSuccess: (updated) => {
      if (updated && queryClient.isMutating({ mutationKey: ['like', postId] }) <= 1) {
        updatePostEverywhere(queryClient, postId, (post) => ({
          ...post,
          isLiked: updated.isLiked,
          likeCount: updated.likeCount,
        }))
      }
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { toast } from '@/components/ui/use-toast'
import type { Post } from '@/lib/types'
import { updatePostEverywhere } from './post-cache'

/** Removes the preview card of the caller's post's link, for good; answers the post. */
export const removeCard = (postId: number) => api.delete<Post>(`/api/posts/${postId}/card`)

export function useRemoveCard(postId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => removeCard(postId),
    onSuccess: () => {
      updatePostEverywhere(queryClient, postId, (post) => ({ ...post, card: null }))
      toast({ title: 'Preview removed' })
    },
    onError: (error) => {
      if (!handleUnauthorized(error))
        toast({ title: 'Error', description: messageOf(error, 'Failed to remove the preview. Please try again.'), variant: 'destructive' })
    },
  })
}

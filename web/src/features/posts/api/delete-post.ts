import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { toast } from '@/components/ui/use-toast'
import { userKeys, postKeys } from '@/lib/query-keys'
import { removePostEverywhere } from './post-cache'

export const deletePost = (postId: number) => api.delete(`/api/posts/${postId}`)

export function useDeletePost() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deletePost,
    onSuccess: (_data, postId) => {
      removePostEverywhere(queryClient, postId)
      toast({ title: 'Post deleted' })
      void queryClient.invalidateQueries({ queryKey: postKeys.all })
      void queryClient.invalidateQueries({ queryKey: userKeys.all })
    },
    onError: (error) => {
      if (!handleUnauthorized(error))
        toast({ title: 'Error', description: messageOf(error, 'Failed to delete post. Please try again.'), variant: 'destructive' })
    },
  })
}

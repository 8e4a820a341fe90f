import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Post } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { updatePostEverywhere } from './post-cache'

export const votePoll = ({ postId, option }: { postId: number; option: string }) =>
  api.post<Post>(`/api/posts/${postId}/vote`, { option })

export function useVote() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: votePoll,
    onSuccess: (updated, { postId }) => {
      updatePostEverywhere(queryClient, postId, (post) => ({
        ...post,
        pollVotes: updated.pollVotes,
        myVote: updated.myVote,
        pollExpiresAt: updated.pollExpiresAt,
      }))
    },
    onError: (error) => {
      if (!handleUnauthorized(error))
        toast({ title: 'Error', description: messageOf(error, 'Failed to vote. Please try again.'), variant: 'destructive' })
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Post } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { updatePostEverywhere } from './post-cache'

/** One option, or on a multiple-choice poll the options chosen. */
export const votePoll = ({ postId, options }: { postId: number; options: string[] }) =>
  api.post<Post>(`/api/posts/${postId}/vote`, options.length === 1 ? { option: options[0] } : { options })

export function useVote() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: votePoll,
    onSuccess: (updated, { postId }) => {
      updatePostEverywhere(queryClient, postId, (post) => ({
        ...post,
        pollVotes: updated.pollVotes,
        myVote: updated.myVote,
        myVotes: updated.myVotes,
        pollExpiresAt: updated.pollExpiresAt,
      }))
    },
    onError: (error) => {
      if (!handleUnauthorized(error))
        toast({ title: 'Error', description: messageOf(error, 'Failed to vote. Please try again.'), variant: 'destructive' })
    },
  })
}

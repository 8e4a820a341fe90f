import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Post } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { postKeys } from '@/lib/query-keys'
import { updatePostEverywhere } from './post-cache'

export interface ToggleRepostInput {
  postId: number
  repost: boolean
}

export const REPOST_CONTENT = '♻️'

export async function toggleRepost({ postId, repost }: ToggleRepostInput): Promise<void> {
  if (repost) await api.post<Post>('/api/posts', { content: REPOST_CONTENT, repostOfId: postId })
  else await api.delete(`/api/posts/${postId}/repost`)
}

/** Optimistic repost and undo, reverted with the spec's toast on failure. */
export function useToggleRepost(postId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationKey: ['repost', postId],
    scope: { id: `repost-${postId}` },
    mutationFn: (repost: boolean) => toggleRepost({ postId, repost }),
    onMutate: (repost) => {
      updatePostEverywhere(queryClient, postId, (post) =>
        post.isReposted === repost
          ? post
          : { ...post, isReposted: repost, repostCount: Math.max(0, post.repostCount + (repost ? 1 : -1)) },
      )
    },
    onError: (error, repost) => {
      updatePostEverywhere(queryClient, postId, (post) =>
        post.isReposted !== repost
          ? post
          : { ...post, isReposted: !repost, repostCount: Math.max(0, post.repostCount + (repost ? -1 : 1)) },
      )
      if (!handleUnauthorized(error))
        toast({ title: 'Error', description: 'Failed to repost. Please try again.', variant: 'destructive' })
    },
    onSuccess: () => {
      // The member's own feed and profile gain or lose the repost.
      void queryClient.invalidateQueries({ queryKey: postKeys.feed() })
      void queryClient.invalidateQueries({ queryKey: postKeys.byAnyUser() })
    },
  })
}

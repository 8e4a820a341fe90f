import { api } from '@/lib/api-client'
import type { Post } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'
import { counted, usePostToggle } from './toggle-post'

export const REPOST_CONTENT = '♻️'

/** Repost and undo; the member's own feed and profile gain or lose the repost. */
export function useToggleRepost(postId: number) {
  return usePostToggle({
    name: 'repost',
    postId,
    send: async (repost) => {
      if (repost) await api.post<Post>('/api/posts', { content: REPOST_CONTENT, repostOfId: postId })
      else await api.delete(`/api/posts/${postId}/repost`)
    },
    mark: counted('isReposted', 'repostCount'),
    succeeded: (queryClient) => {
      void queryClient.invalidateQueries({ queryKey: postKeys.feed() })
      void queryClient.invalidateQueries({ queryKey: postKeys.byAnyUser() })
    },
    errorDescription: 'Failed to repost. Please try again.',
  })
}

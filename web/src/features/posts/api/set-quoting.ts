import { api } from '@/lib/api-client'
import type { Post } from '@/lib/types'
import { usePostToggle } from './toggle-post'

/** The author lets others quote their post, or not; quotes already made stay. */
export function useSetQuoting(postId: number) {
  return usePostToggle({
    name: 'quoting',
    postId,
    send: (allowed) => api.put<Post>(`/api/posts/${postId}/quoting`, { allowed }),
    mark: (post, allowed) => ({ ...post, quotesAllowed: allowed }),
    written: (post, updated) => ({ ...post, quotesAllowed: updated.quotesAllowed }),
    errorDescription: 'Failed to change quoting. Please try again.',
  })
}

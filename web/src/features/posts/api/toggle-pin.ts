import { api } from '@/lib/api-client'
import type { Post } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'
import { usePostToggle } from './toggle-post'

/** Pin to and unpin from the member's profile; their profile's pinned posts are read again after. */
export function useTogglePin(postId: number) {
  return usePostToggle({
    name: 'pin',
    postId,
    send: (pin) => (pin ? api.post<Post>(`/api/posts/${postId}/pin`) : api.delete<Post>(`/api/posts/${postId}/pin`)),
    mark: (post, pin) => ({ ...post, pinned: pin }),
    written: (post, updated) => ({ ...post, pinned: updated.pinned }),
    succeeded: (queryClient) => void queryClient.invalidateQueries({ queryKey: postKeys.byAnyUser() }),
    errorDescription: 'Failed to update the pin. At most 5 posts can be pinned.',
  })
}

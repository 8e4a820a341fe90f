import { api } from '@/lib/api-client'
import type { Post } from '@/lib/types'
import { counted, usePostToggle } from './toggle-post'

export const DEFAULT_LIKE_ERROR = 'Failed to update like. Please try again.'

export function useToggleLike(postId: number, errorDescription: string = DEFAULT_LIKE_ERROR) {
  return usePostToggle({
    name: 'like',
    postId,
    send: (like) => (like ? api.post<Post>(`/api/posts/${postId}/like`) : api.delete<Post>(`/api/posts/${postId}/like`)),
    mark: counted('isLiked', 'likeCount'),
    written: (post, updated) => ({ ...post, isLiked: updated.isLiked, likeCount: updated.likeCount }),
    errorDescription,
  })
}

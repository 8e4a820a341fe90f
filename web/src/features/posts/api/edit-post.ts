import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Post } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'
import { updatePostEverywhere } from './post-cache'

export interface EditPostInput {
  postId: number
  content: string
  /** The images the post keeps (some of its own); left out, it keeps them all. */
  imageUrls?: string[]
}

export const editPost = ({ postId, content, imageUrls }: EditPostInput) =>
  api.patch<Post>(`/api/posts/${postId}`, imageUrls === undefined ? { content } : { content, imageUrls })

/** Edits the member's own post; every copy on screen takes the new text, and its history is read again. */
export function useEditPost() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: editPost,
    onSuccess: (updated, { postId }) => {
      updatePostEverywhere(queryClient, postId, (post) => ({
        ...post,
        content: updated.content,
        entities: updated.entities,
        imageUrls: updated.imageUrls,
        editedAt: updated.editedAt,
      }))
      void queryClient.invalidateQueries({ queryKey: postKeys.history(postId) })
    },
  })
}

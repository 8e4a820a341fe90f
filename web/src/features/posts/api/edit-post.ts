import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Post } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'
import { updatePostEverywhere } from './post-cache'

export interface EditPostInput {
  postId: number
  content: string
  /** The content warning from now on; null takes it away; left out, it stays. */
  spoilerText?: string | null
  /** The images the post keeps (some of its own); left out, it keeps them all. */
  imageUrls?: string[]
  /** Instead of imageUrls: the images it keeps, each with its description from now on. */
  images?: { url: string; alt: string | null }[]
}

export const editPost = ({ postId, ...body }: EditPostInput) => api.patch<Post>(`/api/posts/${postId}`, body)

/** Edits the member's own post; every copy on screen takes the new text, and its history is read again. */
export function useEditPost() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: editPost,
    onSuccess: (updated, { postId }) => {
      updatePostEverywhere(queryClient, postId, (post) => ({
        ...post,
        content: updated.content,
        spoilerText: updated.spoilerText,
        entities: updated.entities,
        imageUrls: updated.imageUrls,
        images: updated.images,
        editedAt: updated.editedAt,
      }))
      void queryClient.invalidateQueries({ queryKey: postKeys.history(postId) })
    },
  })
}

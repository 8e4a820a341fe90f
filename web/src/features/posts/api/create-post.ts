import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Post } from '@/lib/types'
import { userKeys, postKeys } from '@/lib/query-keys'

export interface CreatePostInput {
  content: string
  /** The spec's shape: images without descriptions. */
  imageUrls?: string[]
  /** Instead of `imageUrls`: each image with its description (null for none). */
  images?: { url: string; alt: string | null }[]
  pollOptions?: string[]
  /** How long the poll stays open (1 to 168; the server's default is 24). */
  pollDurationHours?: number
  replyToId?: number | null
}

export const createPost = (input: CreatePostInput) => api.post<Post>('/api/posts', input)

/** After posting, the feeds and users are refreshed (spec §4). */
export function useCreatePost() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createPost,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: postKeys.all })
      void queryClient.invalidateQueries({ queryKey: userKeys.all })
    },
  })
}

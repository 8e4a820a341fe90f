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
  /** How long the poll stays open, in minutes (5 to 10080; the server's default is a day). */
  pollDurationMinutes?: number
  /** The poll takes several options from each voter. */
  pollMultiple?: boolean
  replyToId?: number | null
  /** The post this one quotes. */
  quoteOfId?: number
  /** Sent as `Idempotency-Key`: a retry with the same key answers the post already made. */
  idempotencyKey?: string
}

export const createPost = ({ idempotencyKey, ...body }: CreatePostInput) =>
  api.post<Post>('/api/posts', body, idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined)

/** A new post's `Idempotency-Key`: 128 random bits (crypto.randomUUID needs a secure context). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

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

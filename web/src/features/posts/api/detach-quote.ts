import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { toast } from '@/components/ui/use-toast'
import { updatePostEverywhere } from './post-cache'

export interface DetachQuoteInput {
  /** The member's own post, quoted. */
  postId: number
  /** The post quoting it. */
  quoteId: number
}

export const detachQuote = ({ postId, quoteId }: DetachQuoteInput) =>
  api.post<void>(`/api/posts/${postId}/quotes/${quoteId}/detach`)

/** The quoted author takes their post out of someone's quote: the quote then shows "Removed by the author". */
export function useDetachQuote() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: detachQuote,
    onSuccess: (_, { quoteId }) => {
      updatePostEverywhere(queryClient, quoteId, (post) => ({ ...post, quoteOf: null, quoteOfId: null, quoteDetached: true }))
      toast({ description: 'Your post was removed from this quote.' })
    },
    onError: (error) => {
      if (!handleUnauthorized(error)) toast({ title: 'Error', description: 'Failed to remove your post. Please try again.', variant: 'destructive' })
    },
  })
}

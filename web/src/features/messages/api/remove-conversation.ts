import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { conversationGone } from './conversation-cache'

/**
 * Puts a conversation away: declines a request (its sender is not told), leaves a group, hides a
 * conversation of two until its next message.
 */
export const removeConversation = (id: number) => api.delete(`/api/conversations/${id}`)

export function useRemoveConversation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: removeConversation,
    onSuccess: (_none, id) => conversationGone(queryClient, id),
  })
}

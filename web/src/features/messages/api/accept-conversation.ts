import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Conversation } from '@/lib/types'
import { conversationChanged } from './conversation-cache'

/** Accepts a request: it moves to the member's inbox. */
export const acceptConversation = (id: number) => api.post<Conversation>(`/api/conversations/${id}/accept`)

export function useAcceptConversation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: acceptConversation,
    onSuccess: (conversation) => conversationChanged(queryClient, conversation),
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Conversation } from '@/lib/types'
import { conversationChanged } from './conversation-cache'

/**
 * The conversation of the member and these people: the one they have (back in the inbox if it
 * was put away) or a new one. Refused (403) with a message naming whoever takes no messages
 * from the member.
 */
export const openConversation = (memberIds: number[]) => api.post<Conversation>('/api/conversations', { memberIds })

export function useOpenConversation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: openConversation,
    onSuccess: (conversation) => conversationChanged(queryClient, conversation),
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { messageKeys } from '@/lib/query-keys'
import { updateConversation } from './conversation-cache'

/** The member has read the conversation up to its latest message; no one else is told. */
export const markConversationRead = (conversationId: number) => api.post(`/api/conversations/${conversationId}/read`)

export function useMarkConversationRead(conversationId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => markConversationRead(conversationId),
    onSuccess: () => {
      updateConversation(queryClient, conversationId, (c) => ({ ...c, unread: false }))
      void queryClient.invalidateQueries({ queryKey: messageKeys.unreadCount() })
    },
  })
}

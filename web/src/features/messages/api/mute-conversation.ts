import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Conversation } from '@/lib/types'
import { conversationChanged } from './conversation-cache'

/** Mutes a conversation (it no longer counts as unread), or unmutes it. */
export const muteConversation = (id: number, muted: boolean) => api.put<Conversation>(`/api/conversations/${id}/mute`, { muted })

export function useMuteConversation(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (muted: boolean) => muteConversation(id, muted),
    onSuccess: (conversation) => conversationChanged(queryClient, conversation),
  })
}

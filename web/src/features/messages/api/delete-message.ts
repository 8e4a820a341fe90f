import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { messageKeys } from '@/lib/query-keys'
import type { Message } from '@/lib/types'

/** Deletes one of the member's messages for everyone: its place stays as "Message deleted". */
export const deleteMessage = (id: number) => api.delete(`/api/messages/${id}`)

export function useDeleteMessage(conversationId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteMessage,
    onSuccess: (_none, id) => {
      queryClient.setQueryData<InfiniteData<Message[]>>(messageKeys.messages(conversationId), (data) =>
        data && {
          ...data,
          pages: data.pages.map((page) =>
            page.map((m): Message => (m.id === id ? { ...m, content: '', removed: 'deleted' } : m)),
          ),
        },
      )
      // The lists show the last message's words.
      void queryClient.invalidateQueries({ queryKey: messageKeys.lists() })
      void queryClient.invalidateQueries({ queryKey: messageKeys.conversation(conversationId) })
    },
  })
}

import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { messageKeys } from '@/lib/query-keys'
import type { Message } from '@/lib/types'

export const sendMessage = (conversationId: number, content: string) =>
  api.post<Message>(`/api/conversations/${conversationId}/messages`, { content })

/**
 * Sends a message: it shows at the bottom at once the server has it; the conversation (a request
 * may now be answered, or have used its messages) and the lists are read again.
 */
export function useSendMessage(conversationId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (content: string) => sendMessage(conversationId, content),
    // One after another, so they arrive in the order written.
    scope: { id: messageKeys.send(conversationId).join(':') },
    onSuccess: (message) => {
      queryClient.setQueryData<InfiniteData<Message[]>>(messageKeys.messages(conversationId), (data) => {
        if (!data || data.pages.some((page) => page.some((m) => m.id === message.id))) return data
        const [newest = [], ...older] = data.pages
        return { ...data, pages: [[message, ...newest], ...older] }
      })
      void queryClient.invalidateQueries({ queryKey: messageKeys.conversation(conversationId) })
      void queryClient.invalidateQueries({ queryKey: messageKeys.lists() })
    },
    // A refusal may mean the conversation changed (a block, a request's messages used up).
    onError: () => void queryClient.invalidateQueries({ queryKey: messageKeys.conversation(conversationId) }),
  })
}

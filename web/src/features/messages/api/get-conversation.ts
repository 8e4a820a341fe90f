import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { messageKeys } from '@/lib/query-keys'
import type { Conversation } from '@/lib/types'

export const conversationQueryOptions = (id: number) =>
  queryOptions({ queryKey: messageKeys.conversation(id), queryFn: () => api.get<Conversation>(`/api/conversations/${id}`) })

/** One of the member's conversations (404 for one they are not in). */
export function useConversation(id: number) {
  return useQuery(conversationQueryOptions(id))
}

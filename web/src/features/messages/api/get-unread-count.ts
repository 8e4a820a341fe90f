import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { messageKeys } from '@/lib/query-keys'

export const getUnreadConversations = () => api.get<{ count: number }>('/api/conversations/unread-count')

export const unreadConversationsQueryOptions = () =>
  queryOptions({ queryKey: messageKeys.unreadCount(), queryFn: getUnreadConversations })

/** How many inbox conversations (not muted) hold a message the member has not read. */
export function useUnreadConversations(enabled = true) {
  return useQuery({ ...unreadConversationsQueryOptions(), enabled })
}

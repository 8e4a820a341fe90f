import { useInfiniteQuery } from '@tanstack/react-query'
import { pagedQueryOptions } from '@/lib/paged-query'
import { messageKeys, type ConversationBox } from '@/lib/query-keys'
import type { Conversation } from '@/lib/types'

export const conversationsQueryOptions = (box: ConversationBox) => ({
  ...pagedQueryOptions<Conversation>(messageKeys.list(box), `/api/conversations?box=${box}`),
})

/** The member's conversations in the inbox or under Requests, the latest message first. */
export function useConversations(box: ConversationBox) {
  return useInfiniteQuery(conversationsQueryOptions(box))
}

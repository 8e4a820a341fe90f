import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { messageKeys } from '@/lib/query-keys'
import { PAGE_SIZE, type Message } from '@/lib/types'

/**
 * A conversation's messages, each page newest first; the next page is the one before the oldest
 * message so far. Read again, the pages are fetched from the newest on, so a message that
 * arrived meanwhile is in the first page and none is skipped.
 */
export const messagesQueryOptions = (conversationId: number) =>
  infiniteQueryOptions({
    queryKey: messageKeys.messages(conversationId),
    queryFn: ({ pageParam }) =>
      api.get<Message[]>(
        `/api/conversations/${conversationId}/messages?limit=${PAGE_SIZE}${pageParam === null ? '' : `&before=${pageParam}`}`,
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (lastPage: Message[]) =>
      lastPage.length === PAGE_SIZE ? Math.min(...lastPage.map((message) => message.id)) : undefined,
  })

export function useMessages(conversationId: number) {
  return useInfiniteQuery(messagesQueryOptions(conversationId))
}

/** The loaded messages oldest first, as the conversation shows them (the newest at the bottom). */
export function oldestFirst(pages: readonly Message[][] | undefined): Message[] {
  return (pages ?? []).flat().reverse()
}

import type { InfiniteData, QueryClient } from '@tanstack/react-query'
import { messageKeys } from '@/lib/query-keys'
import type { Conversation } from '@/lib/types'

type Pages = InfiniteData<Conversation[]>

/**
 * A conversation as the server answered after a change: its own view and the lists show it at
 * once, and the lists and the unread count are read again (it may have moved between boxes).
 */
export function conversationChanged(queryClient: QueryClient, conversation: Conversation) {
  queryClient.setQueryData(messageKeys.conversation(conversation.id), conversation)
  queryClient.setQueriesData<Pages>({ queryKey: messageKeys.lists() }, (data) =>
    data && {
      ...data,
      pages: data.pages.map((page) => page.map((c) => (c.id === conversation.id ? conversation : c))),
    },
  )
  void queryClient.invalidateQueries({ queryKey: messageKeys.lists() })
  void queryClient.invalidateQueries({ queryKey: messageKeys.unreadCount() })
}

/** A conversation the member put away: out of the lists, its reads forgotten. */
export function conversationGone(queryClient: QueryClient, id: number) {
  queryClient.setQueriesData<Pages>({ queryKey: messageKeys.lists() }, (data) =>
    data && { ...data, pages: data.pages.map((page) => page.filter((c) => c.id !== id)) },
  )
  queryClient.removeQueries({ queryKey: messageKeys.conversation(id) })
  queryClient.removeQueries({ queryKey: messageKeys.messages(id) })
  void queryClient.invalidateQueries({ queryKey: messageKeys.lists() })
  void queryClient.invalidateQueries({ queryKey: messageKeys.unreadCount() })
}

/** Changes one conversation wherever it is cached (its view and the lists), without asking the server. */
export function updateConversation(queryClient: QueryClient, id: number, change: (conversation: Conversation) => Conversation) {
  queryClient.setQueryData<Conversation>(messageKeys.conversation(id), (c) => c && change(c))
  queryClient.setQueriesData<Pages>({ queryKey: messageKeys.lists() }, (data) =>
    data && { ...data, pages: data.pages.map((page) => page.map((c) => (c.id === id ? change(c) : c))) },
  )
}

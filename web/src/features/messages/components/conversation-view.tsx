import * as React from 'react'
import { Link } from 'wouter'
import { ArrowLeft, BellOff, Users } from 'lucide-react'
import { LoadError } from '@/components/load-error'
import { Avatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { ApiError } from '@/lib/api-client'
import type { Conversation } from '@/lib/types'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useConversation } from '../api/get-conversation'
import { oldestFirst, useMessages } from '../api/get-messages'
import { useMarkConversationRead } from '../api/mark-read'
import { conversationTitle } from '../lib/names'
import { ConversationMenu } from './conversation-menu'
import { MessageComposer } from './message-composer'
import { MessageList } from './message-list'
import { RequestBanner, SentAsRequest } from './request-banner'

/** The bar above a conversation: back to the list (on a phone), who is in it, its menu. */
function ConversationHeader({
  conversation,
  memberId,
  backHref,
}: {
  conversation: Conversation | undefined
  memberId: number
  backHref: string
}) {
  const only = conversation?.members.length === 1 ? conversation.members[0] : undefined
  const title = conversation ? conversationTitle(conversation.members) : 'Conversation'
  return (
    <div className="flex min-h-14 items-center gap-2 border-b border-border px-2 sm:px-4">
      <Button asChild variant="ghost" size="icon" aria-label="Back to messages" className="lg:hidden">
        <Link href={backHref}>
          <ArrowLeft className="size-5" aria-hidden="true" />
        </Link>
      </Button>
      {only ? (
        <Avatar name={only.displayName} src={only.profileImageUrl} size={32} />
      ) : (
        conversation && (
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-muted">
            <Users className="size-4" aria-hidden="true" />
          </span>
        )
      )}
      <div className="min-w-0 flex-1">
        <h2 className="truncate font-bold">{title}</h2>
        {only ? (
          <Link href={`/profile/${only.username}`} className="block truncate text-sm text-muted-foreground hover:underline">
            @{only.username}
          </Link>
        ) : (
          conversation &&
          conversation.members.length > 1 && (
            <p className="truncate text-sm text-muted-foreground">
              {conversation.members.map((member) => `@${member.username}`).join(', ')}
            </p>
          )
        )}
      </div>
      {conversation?.muted && (
        <span className="text-muted-foreground" title="Muted">
          <BellOff className="size-4" aria-hidden="true" />
          <span className="sr-only">Muted</span>
        </span>
      )}
      {conversation && <ConversationMenu conversation={conversation} memberId={memberId} />}
    </div>
  )
}

/**
 * Marks the conversation read up to its newest message when it opens and when a newer one
 * arrives while it is open (nobody else is told).
 */
function useReadWhileOpen(conversationId: number, newest: number) {
  const { mutate } = useMarkConversationRead(conversationId)
  const marked = React.useRef(0)
  React.useEffect(() => {
    if (newest <= marked.current) return
    marked.current = newest
    mutate()
  }, [newest, mutate])
}

/** One conversation: its messages with the newest at the bottom, and the composer (or why there is none). */
export function ConversationView({ id, memberId }: { id: number; memberId: number }) {
  const conversation = useConversation(id)
  const messages = useMessages(id)
  const shown = React.useMemo(() => oldestFirst(messages.data?.pages), [messages.data])
  useReadWhileOpen(id, shown.at(-1)?.id ?? 0)
  const { fetchNextPage } = messages
  const loadOlder = React.useCallback(() => void fetchNextPage(), [fetchNextPage])
  const error = conversation.error ?? messages.error
  React.useEffect(() => {
    if (error) handleUnauthorized(error)
  }, [error])

  const backHref = conversation.data?.box === 'requests' ? '/messages?box=requests' : '/messages'
  const header = <ConversationHeader conversation={conversation.data} memberId={memberId} backHref={backHref} />

  if (error) {
    const missing = error instanceof ApiError && error.status === 404
    return (
      <>
        {header}
        {missing ? (
          <p className="px-4 py-10 text-center text-muted-foreground">
            This conversation does not exist, or you are not in it.
          </p>
        ) : (
          <LoadError
            what="This conversation"
            onRetry={() => void Promise.all([conversation.refetch(), messages.refetch()])}
            retrying={conversation.isRefetching || messages.isRefetching}
          />
        )}
      </>
    )
  }
  const current = conversation.data
  if (!current || messages.isPending) {
    return (
      <>
        {header}
        <p role="status" className="px-4 py-10 text-center text-muted-foreground">
          Loading...
        </p>
      </>
    )
  }
  return (
    <>
      {header}
      {current.box === 'requests' && <RequestBanner conversation={current} />}
      {current.sentAsRequest && <SentAsRequest />}
      <MessageList
        messages={shown}
        memberId={memberId}
        hasOlder={messages.hasNextPage}
        loadingOlder={messages.isFetchingNextPage}
        refreshing={messages.isFetching && !messages.isFetchingNextPage}
        olderFailed={messages.isFetchNextPageError}
        loadOlder={loadOlder}
        empty={<p className="px-4 py-10 text-center text-muted-foreground">No messages yet. Say hello.</p>}
      />
      {current.canSend ? (
        <MessageComposer conversationId={id} memberId={memberId} />
      ) : (
        <p role="status" className="border-t border-border px-4 py-3 text-center text-sm text-muted-foreground">
          This conversation takes no new messages
        </p>
      )}
    </>
  )
}

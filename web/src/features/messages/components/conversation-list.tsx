import * as React from 'react'
import { Link } from 'wouter'
import { BellOff, Users } from 'lucide-react'
import { LoadError } from '@/components/load-error'
import { ShowMore } from '@/components/show-more'
import { Avatar } from '@/components/ui/avatar'
import type { ConversationBox } from '@/lib/query-keys'
import type { Conversation } from '@/lib/types'
import { handleUnauthorized } from '@/lib/unauthorized'
import { cn, relativeTime } from '@/lib/utils'
import { useConversations } from '../api/get-conversations'
import { conversationTitle } from '../lib/names'
import { REMOVED_TEXT, authorName } from './message-item'

const EMPTY: Record<ConversationBox, string> = {
  inbox: 'No conversations yet. Start one with New message.',
  requests: 'No requests. Messages from people you don’t follow wait here until you accept them.',
}

/** The last message's first words, as the row shows them. */
function preview(conversation: Conversation, memberId: number): string {
  const last = conversation.lastMessage
  if (!last) return 'No messages yet'
  const words = last.removed ? REMOVED_TEXT[last.removed] : last.content
  return conversation.members.length > 1 || last.author?.id === memberId ? `${authorName(last, memberId)}: ${words}` : words
}

function ConversationRow({ conversation, memberId, open }: { conversation: Conversation; memberId: number; open: boolean }) {
  const only = conversation.members.length === 1 ? conversation.members[0] : undefined
  const title = conversationTitle(conversation.members)
  const href = `/messages/${conversation.id}${conversation.box === 'requests' ? '?box=requests' : ''}`
  const when = conversation.lastMessage?.createdAt ?? conversation.createdAt
  return (
    <li>
      <Link
        href={href}
        aria-current={open ? 'page' : undefined}
        className={cn(
          'flex items-center gap-3 px-4 py-3 hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
          open && 'bg-accent',
        )}
      >
        {only ? (
          <Avatar name={only.displayName} src={only.profileImageUrl} size={44} />
        ) : (
          <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-muted">
            <Users className="size-5" aria-hidden="true" />
          </span>
        )}
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className={cn('min-w-0 flex-1 truncate', conversation.unread ? 'font-bold' : 'font-semibold')}>{title}</span>
            <time dateTime={when} className="shrink-0 text-xs text-muted-foreground">
              {relativeTime(when)}
            </time>
          </span>
          <span className="flex items-center gap-2">
            <span
              className={cn(
                'min-w-0 flex-1 truncate text-sm',
                conversation.unread ? 'font-medium text-foreground' : 'text-muted-foreground',
              )}
            >
              {preview(conversation, memberId)}
            </span>
            {conversation.muted && (
              <span className="shrink-0 text-muted-foreground">
                <BellOff className="size-4" aria-hidden="true" />
                <span className="sr-only">Muted</span>
              </span>
            )}
            {conversation.unread && (
              <span className="size-2.5 shrink-0 rounded-full bg-primary">
                <span className="sr-only">Unread</span>
              </span>
            )}
          </span>
          {conversation.sentAsRequest && <span className="block text-xs text-muted-foreground">Sent as a request</span>}
        </span>
      </Link>
    </li>
  )
}

/** The member's conversations in one box, the latest first; the open one is marked. */
export function ConversationList({ box, memberId, openId }: { box: ConversationBox; memberId: number; openId: number | null }) {
  const conversations = useConversations(box)
  React.useEffect(() => {
    if (conversations.error) handleUnauthorized(conversations.error)
  }, [conversations.error])
  if (conversations.isPending)
    return (
      <p role="status" className="px-4 py-10 text-center text-muted-foreground">
        Loading...
      </p>
    )
  if (conversations.error)
    return (
      <LoadError
        what={box === 'inbox' ? 'Your conversations' : 'Your requests'}
        onRetry={() => void conversations.refetch()}
        retrying={conversations.isRefetching}
      />
    )
  const all = conversations.data.pages.flat()
  if (all.length === 0) return <p className="px-4 py-10 text-center text-muted-foreground">{EMPTY[box]}</p>
  return (
    <>
      <ul aria-label={box === 'inbox' ? 'Conversations' : 'Requests'} className="divide-y divide-border">
        {all.map((conversation) => (
          <ConversationRow key={conversation.id} conversation={conversation} memberId={memberId} open={conversation.id === openId} />
        ))}
      </ul>
      <ShowMore
        hasNextPage={conversations.hasNextPage}
        isFetchingNextPage={conversations.isFetchingNextPage}
        fetchNextPage={conversations.fetchNextPage}
        label="Show more conversations"
      />
    </>
  )
}

import * as React from 'react'
import { Trash2 } from 'lucide-react'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { Button } from '@/components/ui/button'
import type { Message } from '@/lib/types'
import { toastFailure } from '@/lib/toast-failure'
import { cn, dateTime, relativeTime } from '@/lib/utils'
import { useDeleteMessage } from '../api/delete-message'

/** What shows in place of a message whose words are gone. */
export const REMOVED_TEXT: Record<NonNullable<Message['removed']>, string> = {
  deleted: 'Message deleted',
  memberDeleted: 'Message from a deleted member removed',
}

/** Who wrote a message, as the conversation names them. */
export function authorName(message: Message, memberId: number): string {
  if (!message.author) return 'Deleted member'
  return message.author.id === memberId ? 'You' : message.author.displayName
}

/**
 * One message: its author and time (left out under the one before when the same person wrote
 * it just before), its words or why they are gone, and Delete on the member's own.
 */
export function MessageItem({
  message,
  memberId,
  showAuthor,
}: {
  message: Message
  memberId: number
  /** False for a message following one of the same author's a moment before. */
  showAuthor: boolean
}) {
  const own = message.author?.id === memberId
  const [confirming, setConfirming] = React.useState(false)
  const remove = useDeleteMessage(message.conversationId)
  const name = authorName(message, memberId)
  return (
    <li className={cn('group flex flex-col', own ? 'items-end' : 'items-start', showAuthor ? 'mt-3' : 'mt-0.5')}>
      <p className={cn('flex items-baseline gap-2 px-1 text-xs text-muted-foreground', !showAuthor && 'sr-only')}>
        <span className="font-semibold text-foreground">{name}</span>
        <time dateTime={message.createdAt} title={dateTime(message.createdAt)}>
          {relativeTime(message.createdAt)}
        </time>
      </p>
      <div className={cn('flex max-w-[85%] items-center gap-1', own && 'flex-row-reverse')}>
        {message.removed ? (
          <p className="rounded-2xl border border-dashed border-border px-3 py-2 text-sm italic text-muted-foreground">
            {REMOVED_TEXT[message.removed]}
          </p>
        ) : (
          <p
            className={cn(
              'min-w-0 whitespace-pre-wrap break-words rounded-2xl px-3 py-2',
              own ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground',
            )}
          >
            {message.content}
          </p>
        )}
        {own && !message.removed && (
          <Button
            variant="ghost"
            size="icon"
            aria-label="Delete message"
            className="size-8 text-muted-foreground pointer-fine:opacity-0 pointer-fine:group-hover:opacity-100 pointer-fine:focus-visible:opacity-100"
            onClick={() => setConfirming(true)}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this message?"
        description="It is deleted for everyone in the conversation; they see “Message deleted” in its place."
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(message.id, {
            onSuccess: () => setConfirming(false),
            onError: (error) => toastFailure(error, 'Could not delete the message. Please try again.'),
          })
        }
      />
    </li>
  )
}

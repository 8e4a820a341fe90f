import * as React from 'react'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldError } from '@/components/ui/field-error'
import { MAX_REPORTED_MESSAGES, type Message } from '@/lib/types'
import { cn, dateTime, relativeTime } from '@/lib/utils'
import { ReportForm } from '@/features/safety'
import { oldestFirst, useMessages } from '../api/get-messages'
import { authorName } from './message-item'


interface ReportMessagesDialogProps {
  conversationId: number
  memberId: number
  /** The message the member reports from, chosen already. */
  messageId?: number
  open: boolean
  onOpenChange: (open: boolean) => void
  onCloseAutoFocus?: (event: Event) => void
}

/**
 * Reports some of a conversation's messages: the member chooses which (others', and their own
 * for context), and moderators read those and nothing else of the conversation.
 */
export function ReportMessagesDialog({ conversationId, memberId, messageId, open, onOpenChange, onCloseAutoFocus }: ReportMessagesDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Report messages</DialogTitle>
          <DialogDescription>
            Moderators will see only the messages you choose. Nobody else sees who sent the report.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted on each opening, so it starts with only the message it was opened from. */}
        <ReportMessagesForm
          conversationId={conversationId}
          memberId={memberId}
          messageId={messageId}
          onClose={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  )
}

function ReportMessagesForm({
  conversationId,
  memberId,
  messageId,
  onClose,
}: {
  conversationId: number
  memberId: number
  messageId?: number
  onClose: () => void
}) {
  const { data } = useMessages(conversationId)
  // Words that are gone tell moderators nothing.
  const messages = React.useMemo(() => oldestFirst(data?.pages).filter((message) => !message.removed), [data])
  const [chosen, setChosen] = React.useState<ReadonlySet<number>>(() => new Set(messageId === undefined ? [] : [messageId]))
  const listRef = React.useRef<HTMLUListElement>(null)

  // The newest are at the bottom, where the member was reading.
  React.useLayoutEffect(() => {
    const list = listRef.current
    if (list) list.scrollTop = list.scrollHeight
  }, [])

  const isOthers = (message: Message) => message.author?.id !== memberId
  const chosenIds = messages.filter((message) => chosen.has(message.id)).map((message) => message.id)
  const someOthers = messages.some((message) => chosen.has(message.id) && isOthers(message))
  const full = chosenIds.length >= MAX_REPORTED_MESSAGES

  const toggle = (id: number, on: boolean) =>
    setChosen((before) => {
      const after = new Set(before)
      if (on) after.add(id)
      else after.delete(id)
      return after
    })

  return (
    <ReportForm
      target={someOthers ? { messageIds: chosenIds } : null}
      onMissingTarget={() => listRef.current?.querySelector('input')?.focus()}
      onClose={onClose}
      choice={(tried) => {
        const missing = tried && !someOthers
        return (
          <fieldset
            className="grid gap-2"
            aria-describedby={missing ? 'report-messages-hint report-messages-error' : 'report-messages-hint'}
          >
            <legend className="mb-2 text-sm font-medium">Messages to report</legend>
            {messages.length === 0 ? (
              <p className="text-sm text-muted-foreground">No messages to report.</p>
            ) : (
              <ul ref={listRef} className="grid max-h-60 gap-1 overflow-y-auto rounded-md border border-border p-1">
                {messages.map((message) => {
                  const checked = chosen.has(message.id)
                  return (
                    <li key={message.id}>
                      <label
                        className={cn(
                          'grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 rounded-md px-2 py-1.5 text-sm hover:bg-muted/60',
                          !checked && full && 'opacity-60',
                        )}
                      >
                        <input
                          type="checkbox"
                          checked={checked}
                          disabled={!checked && full}
                          onChange={(event) => toggle(message.id, event.target.checked)}
                          className="row-span-2 mt-0.5 size-4 accent-primary"
                        />
                        <span className="flex items-baseline gap-2 text-xs text-muted-foreground">
                          <span className="font-semibold text-foreground">{authorName(message, memberId)}</span>
                          <time dateTime={message.createdAt} title={dateTime(message.createdAt)}>
                            {relativeTime(message.createdAt)}
                          </time>
                        </span>
                        <span className="line-clamp-3 whitespace-pre-wrap break-words">{message.content}</span>
                      </label>
                    </li>
                  )
                })}
              </ul>
            )}
            <p id="report-messages-hint" className="text-sm text-muted-foreground">
              {full
                ? `You chose ${MAX_REPORTED_MESSAGES}, the most one report takes.`
                : `${chosenIds.length} chosen, at most ${MAX_REPORTED_MESSAGES}. Your own may go with them, for context.`}
            </p>
            <FieldError id="report-messages-error">{missing && 'Choose a message someone else wrote'}</FieldError>
          </fieldset>
        )
      }}
    />
  )
}

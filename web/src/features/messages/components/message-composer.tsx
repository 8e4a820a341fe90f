import * as React from 'react'
import { SendHorizontal } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/textarea'
import { messageOf } from '@/lib/api-client'
import { MESSAGE_MAX_LENGTH } from '@/lib/types'
import { handleUnauthorized } from '@/lib/unauthorized'
import { cn, codePointLength } from '@/lib/utils'
import { useSendMessage } from '../api/send-message'
import { loadMessageDraft, messageDraftKey, saveMessageDraft } from '../lib/drafts'

/**
 * Writes a message: Enter sends, Shift+Enter starts a new line. What is typed is kept per
 * conversation in this browser until the server has the message, so neither a reload nor a
 * refused send loses it; a refusal shows under the field.
 */
export function MessageComposer({ conversationId, memberId }: { conversationId: number; memberId: number }) {
  const id = React.useId()
  const draftKey = messageDraftKey(memberId, conversationId)
  const [text, setText] = React.useState(() => loadMessageDraft(draftKey))
  const [error, setError] = React.useState<string | null>(null)
  const send = useSendMessage(conversationId)
  const length = codePointLength(text.trim())
  const tooLong = length > MESSAGE_MAX_LENGTH
  const canSend = length > 0 && !tooLong && !send.isPending

  const change = (next: string) => {
    setText(next)
    setError(null)
    saveMessageDraft(draftKey, next)
  }

  const submit = (event?: React.FormEvent) => {
    event?.preventDefault()
    if (!canSend) return
    const sent = text
    send.mutate(sent.trim(), {
      onSuccess: () => {
        // Only what was sent goes: words typed while it was on its way stay.
        setText((now) => {
          const rest = now === sent ? '' : now
          saveMessageDraft(draftKey, rest)
          return rest
        })
      },
      onError: (failure) => {
        if (!handleUnauthorized(failure)) setError(messageOf(failure, 'Could not send the message. Please try again.'))
      },
    })
  }

  const keyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    submit()
  }

  return (
    <form onSubmit={submit} className="grid gap-1 border-t border-border bg-background px-3 py-2">
      <div className="flex items-end gap-2">
        <label htmlFor={`${id}-text`} className="sr-only">
          Message
        </label>
        <span id={`${id}-hint`} className="sr-only">
          Enter sends; Shift+Enter starts a new line.
        </span>
        <Textarea
          id={`${id}-text`}
          value={text}
          onChange={(event) => change(event.target.value)}
          onKeyDown={keyDown}
          rows={1}
          placeholder="Write a message"
          aria-describedby={`${id}-hint ${id}-counter${error ? ` ${id}-error` : ''}`}
          aria-invalid={tooLong || undefined}
          className="max-h-40 min-h-10 [field-sizing:content]"
        />
        <Button type="submit" size="icon" aria-label="Send" disabled={!canSend} className="rounded-full">
          <SendHorizontal aria-hidden="true" />
        </Button>
      </div>
      <div className="flex items-start justify-between gap-3 px-1 text-xs">
        <p id={`${id}-error`} role="alert" className="min-w-0 text-destructive">
          {error}
        </p>
        <span
          id={`${id}-counter`}
          className={cn('shrink-0 tabular-nums', tooLong ? 'font-semibold text-destructive' : 'text-muted-foreground')}
        >
          {length}/{MESSAGE_MAX_LENGTH}
        </span>
      </div>
    </form>
  )
}

import * as React from 'react'
import { Button } from '@/components/ui/button'
import { DialogFooter } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { FieldError } from '@/components/ui/field-error'
import { Textarea } from '@/components/ui/textarea'
import { cn, codePointLength } from '@/lib/utils'
import { REPORT_COMMENT_MAX_LENGTH, REPORT_REASONS, type ReportReason } from '@/lib/types'
import type { MemberRef } from '../api/member-changed'
import { useSendReport, type ReportTarget } from '../api/send-report'

interface ReportFormProps {
  /** What is reported; null while the member has not chosen it yet (`choice` says so). */
  target: ReportTarget | null
  /** Offered "Also block" for this member. */
  blockable?: MemberRef
  /**
   * What comes before the reason, such as the messages to choose; told once the member has
   * tried to send, to show what is missing.
   */
  choice?: (tried: boolean) => React.ReactNode
  /** Called on a send without a target, to take the member to what they must choose. */
  onMissingTarget?: () => void
  onClose: () => void
}

/**
 * A report's form: the reason (required), an optional comment, "Also block" where offered.
 * It stays open with every choice kept when the server refuses.
 */
export function ReportForm({ target, blockable, choice, onMissingTarget, onClose }: ReportFormProps) {
  const [reason, setReason] = React.useState<ReportReason | null>(null)
  const [comment, setComment] = React.useState('')
  const [alsoBlock, setAlsoBlock] = React.useState(false)
  const [tried, setTried] = React.useState(false)
  const firstReason = React.useRef<HTMLInputElement>(null)
  const report = useSendReport()
  const commentLength = codePointLength(comment.trim())
  const commentTooLong = commentLength > REPORT_COMMENT_MAX_LENGTH
  const reasonMissing = tried && reason === null

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    setTried(true)
    if (target === null) {
      onMissingTarget?.()
      return
    }
    if (reason === null) {
      firstReason.current?.focus()
      return
    }
    if (commentTooLong) return
    report.mutate(
      { target, reason, comment: comment.trim(), alsoBlock: blockable && alsoBlock ? blockable : undefined },
      { onSuccess: onClose },
    )
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4">
      {choice?.(tried)}
      <fieldset className="grid gap-2" aria-describedby={reasonMissing ? 'report-reason-error' : undefined}>
        <legend className="mb-2 text-sm font-medium">Why are you reporting this?</legend>
        {REPORT_REASONS.map((option, index) => (
          <label key={option.value} className="flex min-h-6 items-center gap-2 text-sm">
            <input
              ref={index === 0 ? firstReason : undefined}
              type="radio"
              name="report-reason"
              value={option.value}
              checked={reason === option.value}
              onChange={() => setReason(option.value)}
              className="size-4 accent-primary"
            />
            {option.label}
          </label>
        ))}
        <FieldError id="report-reason-error">{reasonMissing && 'Choose a reason'}</FieldError>
      </fieldset>
      {/* The count is the server's: characters (code points) of the trimmed text. */}
      <Field
        id="report-comment"
        label="Comment (optional)"
        hint={`${commentLength}/${REPORT_COMMENT_MAX_LENGTH}`}
        hintClassName={cn('text-right', commentTooLong && 'font-semibold text-destructive')}
        error={commentTooLong && `A comment can be at most ${REPORT_COMMENT_MAX_LENGTH} characters long`}
      >
        <Textarea rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />
      </Field>
      {blockable && (
        <label className="flex min-h-6 items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={alsoBlock}
            onChange={(e) => setAlsoBlock(e.target.checked)}
            className="size-4 accent-primary"
          />
          Also block @{blockable.username}
        </label>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={commentTooLong || report.isPending}>
          {report.isPending ? 'Sending...' : 'Send report'}
        </Button>
      </DialogFooter>
    </form>
  )
}

import * as React from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { FieldError } from '@/components/ui/field-error'
import { Textarea } from '@/components/ui/textarea'
import { cn, codePointLength } from '@/lib/utils'
import { REPORT_COMMENT_MAX_LENGTH, REPORT_REASONS, type ReportReason } from '@/lib/types'
import type { MemberRef } from '../api/member-changed'
import { useSendReport } from '../api/send-report'

interface ReportDialogProps {
  member: MemberRef
  /** The post reported; without it, the member is. */
  postId?: number
  /** Offered "Also block" when reporting a member not blocked yet. */
  isBlocking?: boolean
  open: boolean
  onOpenChange: (open: boolean) => void
  onCloseAutoFocus?: (event: Event) => void
}

/** A reason (required), an optional comment; reporting a member may block them too. */
export function ReportDialog({ member, postId, isBlocking, open, onOpenChange, onCloseAutoFocus }: ReportDialogProps) {
  const what = postId === undefined ? `@${member.username}` : 'post'
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Report {what}</DialogTitle>
          <DialogDescription>
            Moderators will look at your report. Nobody else sees who sent it, not even the member reported.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted on each opening, so it starts empty. */}
        <ReportForm
          member={member}
          postId={postId}
          offerBlock={postId === undefined && !isBlocking}
          onClose={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  )
}

function ReportForm({
  member,
  postId,
  offerBlock,
  onClose,
}: {
  member: MemberRef
  postId?: number
  offerBlock: boolean
  onClose: () => void
}) {
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
    if (reason === null) {
      firstReason.current?.focus()
      return
    }
    if (commentTooLong) return
    report.mutate(
      {
        target: postId === undefined ? { userId: member.id } : { postId },
        reason,
        comment: comment.trim(),
        alsoBlock: offerBlock && alsoBlock ? member : undefined,
      },
      { onSuccess: onClose },
    )
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4">
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
      {offerBlock && (
        <label className="flex min-h-6 items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={alsoBlock}
            onChange={(e) => setAlsoBlock(e.target.checked)}
            className="size-4 accent-primary"
          />
          Also block @{member.username}
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

import * as React from 'react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Textarea } from '@/components/ui/textarea'
import { cn, codePointLength } from '@/lib/utils'
import { MODERATION_REASON_MAX_LENGTH, SUSPENSION_DAYS } from '@/lib/types'

export interface ActionDialogProps {
  /** The button that opens the dialog; focus returns to it when the dialog closes. */
  trigger: React.ReactElement
  title: string
  description: string
  confirmLabel: string
  /** A suspension also asks how long. */
  asksDays?: boolean
  pending: boolean
  /** Runs the action; `close` is called once it is done. */
  onConfirm: (input: { reason: string; days: number | null }, close: () => void) => void
}

/** Asks for the reason every moderation action needs (it goes to the public log), then acts. */
export function ActionDialog({ trigger, title, description, confirmLabel, asksDays, pending, onConfirm }: ActionDialogProps) {
  const [open, setOpen] = React.useState(false)
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {/* Mounted on each opening, so it starts empty. */}
        <ReasonForm
          confirmLabel={confirmLabel}
          asksDays={asksDays}
          pending={pending}
          onConfirm={(input) => onConfirm(input, () => setOpen(false))}
          onCancel={() => setOpen(false)}
        />
      </DialogContent>
    </Dialog>
  )
}

/** The suspension lengths offered, by their radio value; "" is until lifted. */
const DAY_CHOICES = [...SUSPENSION_DAYS.map((choice) => ({ value: String(choice.days), label: choice.label })), { value: '', label: 'Indefinitely' }]

function ReasonForm({
  confirmLabel,
  asksDays,
  pending,
  onConfirm,
  onCancel,
}: {
  confirmLabel: string
  asksDays?: boolean
  pending: boolean
  onConfirm: (input: { reason: string; days: number | null }) => void
  onCancel: () => void
}) {
  const [reason, setReason] = React.useState('')
  const [days, setDays] = React.useState(DAY_CHOICES[0]?.value ?? '')
  const [tried, setTried] = React.useState(false)
  const reasonRef = React.useRef<HTMLTextAreaElement>(null)
  const length = codePointLength(reason.trim())
  const tooLong = length > MODERATION_REASON_MAX_LENGTH
  const problem = tooLong
    ? `A reason can be at most ${MODERATION_REASON_MAX_LENGTH} characters long`
    : tried && length === 0
      ? 'Give a reason: it is shown in the moderation log'
      : undefined

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    setTried(true)
    if (length === 0 || tooLong) {
      reasonRef.current?.focus()
      return
    }
    onConfirm({ reason: reason.trim(), days: days === '' ? null : Number(days) })
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4">
      {asksDays && (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">For how long?</legend>
          {DAY_CHOICES.map((choice) => (
            <label key={choice.value} className="flex min-h-6 items-center gap-2 text-sm">
              <input
                type="radio"
                name="suspension-days"
                value={choice.value}
                checked={days === choice.value}
                onChange={() => setDays(choice.value)}
                className="size-4 accent-primary"
              />
              {choice.label}
            </label>
          ))}
        </fieldset>
      )}
      <Field
        id="moderation-reason"
        label="Reason (required)"
        hint={`${length}/${MODERATION_REASON_MAX_LENGTH}. Shown in the public moderation log.`}
        hintClassName={cn(tooLong && 'font-semibold text-destructive')}
        error={problem}
      >
        <Textarea ref={reasonRef} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} required />
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={tooLong || pending}>
          {pending ? 'Working...' : confirmLabel}
        </Button>
      </DialogFooter>
    </form>
  )
}

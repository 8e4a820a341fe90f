import * as React from 'react'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { LIST_TITLE_MAX_LENGTH } from '@/lib/types'

/** A list's title as the server counts it: trimmed, in code points. */
export function titleLength(title: string) {
  return [...title.trim().normalize('NFC')].length
}

/**
 * A title field and its button, for making a list and for renaming one. What was typed stays
 * when the server refuses it, with the server's reason under the field.
 */
export function ListTitleForm({
  id,
  label,
  initial = '',
  submitLabel,
  pendingLabel,
  onSubmit,
}: {
  id: string
  label: string
  initial?: string
  submitLabel: string
  pendingLabel: string
  /** Resolves when saved (the field empties for a new list); rejects with the refusal. */
  onSubmit: (title: string) => Promise<unknown>
}) {
  const [title, setTitle] = React.useState(initial)
  const [error, setError] = React.useState<string>()
  const [pending, setPending] = React.useState(false)
  const length = titleLength(title)
  const tooLong = length > LIST_TITLE_MAX_LENGTH
  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (length === 0 || tooLong) return
    setPending(true)
    setError(undefined)
    try {
      await onSubmit(title.trim())
      if (!initial) setTitle('')
    } catch (e) {
      if (!handleUnauthorized(e)) setError(messageOf(e, 'Could not save the list. Please try again.'))
    } finally {
      setPending(false)
    }
  }
  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-2 sm:flex-row sm:items-start">
      <Field
        id={id}
        label={label}
        className="flex-1"
        hint={`${length}/${LIST_TITLE_MAX_LENGTH}`}
        error={tooLong ? `A list's title can be at most ${LIST_TITLE_MAX_LENGTH} characters` : error}
      >
        <Input
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          autoComplete="off"
        />
      </Field>
      <Button type="submit" className="sm:mt-7" disabled={pending || length === 0 || tooLong}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </form>
  )
}

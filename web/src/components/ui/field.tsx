import type * as React from 'react'
import { Slot } from 'radix-ui'
import { cn } from '@/lib/utils'
import { FieldError } from './field-error'
import { Label } from './label'

/** What a field's control needs to be named and described: its id and the ids of its hint and error. */
export interface FieldControlProps {
  id: string
  'aria-describedby'?: string
  'aria-invalid'?: true
}

interface FieldProps {
  /** The control's id; the hint and error take `${id}-hint` and `${id}-error`. */
  id: string
  label: React.ReactNode
  /** Shown under the control and read out with it. */
  hint?: React.ReactNode
  /** What is wrong with the value; the control is marked invalid while there is one. */
  error?: React.ReactNode
  className?: string
  labelClassName?: string
  hintClassName?: string
  /** The control (it receives the wiring), or a function that places it among other things. */
  children: React.ReactElement | ((control: FieldControlProps) => React.ReactNode)
}

/** A label, a control, an optional hint and error, wired with aria-describedby and aria-invalid. */
export function Field({ id, label, hint, error, className, labelClassName, hintClassName, children }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const control: FieldControlProps = {
    id,
    'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
    'aria-invalid': error ? true : undefined,
  }
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id} className={labelClassName}>
        {label}
      </Label>
      {typeof children === 'function' ? children(control) : <Slot.Root {...control}>{children}</Slot.Root>}
      {hint && (
        <p id={hintId} className={cn('text-xs text-muted-foreground', hintClassName)}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  )
}

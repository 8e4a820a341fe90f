import type * as React from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'

interface ConfirmDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: React.ReactNode
  description: React.ReactNode
  /** The destructive button's label, and its label while the action runs. */
  confirmLabel: string
  /** The button that keeps things as they are ("Cancel" unless told). */
  cancelLabel?: string
  pendingLabel: string
  pending: boolean
  onConfirm: () => void
  /** Where focus goes when the dialog closes (the menu's trigger, not the body). */
  onCloseAutoFocus?: (event: Event) => void
  /** Choices that go with the action (a checkbox), between the question and the buttons. */
  children?: React.ReactNode
}

/** Asks before a destructive action: Cancel, or the action (disabled while it runs). */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  pendingLabel,
  pending,
  onConfirm,
  onCloseAutoFocus,
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {cancelLabel}
          </Button>
          <Button variant="destructive" disabled={pending} onClick={onConfirm}>
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

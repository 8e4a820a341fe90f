import { ConfirmDialog } from '@/components/confirm-dialog'

interface DiscardPostDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  onDiscard: () => void
  onCloseAutoFocus?: (event: Event) => void
}

/** Asked when a composer with something in it is closed: keep editing, or throw the draft away. */
export function DiscardPostDialog({ open, onOpenChange, onDiscard, onCloseAutoFocus }: DiscardPostDialogProps) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Discard post?"
      description="What you wrote and attached will be lost. Keep editing to come back to it later."
      confirmLabel="Discard"
      pendingLabel="Discard"
      pending={false}
      cancelLabel="Keep editing"
      onConfirm={onDiscard}
      onCloseAutoFocus={onCloseAutoFocus}
    />
  )
}

import { ConfirmDialog } from '@/components/confirm-dialog'
import { useBlockMember } from '../api/block-member'
import type { MemberRef } from '../api/member-changed'

interface BlockDialogProps {
  member: MemberRef
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Where focus goes when the dialog closes (the menu's trigger, not the body). */
  onCloseAutoFocus?: (event: Event) => void
}

/** Asks before blocking, saying what a block does; closes once the block is done. */
export function BlockDialog({ member, open, onOpenChange, onCloseAutoFocus }: BlockDialogProps) {
  const block = useBlockMember()
  const handle = `@${member.username}`
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      onCloseAutoFocus={onCloseAutoFocus}
      title={`Block ${handle}?`}
      description={
        <>
          They can&apos;t follow you or interact with you, and you won&apos;t see each other&apos;s posts. Any follows
          between you end. You can unblock them later in Settings.
        </>
      }
      confirmLabel={`Block ${handle}`}
      pendingLabel="Blocking..."
      pending={block.isPending}
      onConfirm={() => block.mutate(member, { onSuccess: () => onOpenChange(false) })}
    />
  )
}

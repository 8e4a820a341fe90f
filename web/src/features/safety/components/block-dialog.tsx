import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
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
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Block {handle}?</DialogTitle>
          <DialogDescription>
            They can&apos;t follow you or interact with you, and you won&apos;t see each other&apos;s posts. Any follows
            between you end. You can unblock them later in Settings.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={block.isPending}
            onClick={() => block.mutate(member, { onSuccess: () => onOpenChange(false) })}
          >
            {block.isPending ? 'Blocking...' : `Block ${handle}`}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

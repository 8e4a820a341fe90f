import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import type { MemberRef } from '../api/member-changed'
import { ReportForm } from './report-form'

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
          target={postId === undefined ? { userId: member.id } : { postId }}
          blockable={postId === undefined && !isBlocking ? member : undefined}
          onClose={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  )
}

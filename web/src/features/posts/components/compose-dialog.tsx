import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import type { Post } from '@/lib/types'
import { Composer } from './composer'

interface ComposeDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  replyTo?: Post
}

/** "Create Post": the composer in a dialog, also used for replies. */
export default function ComposeDialog({ open, onOpenChange, replyTo }: ComposeDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Create Post</DialogTitle>
          <DialogDescription className={replyTo ? undefined : 'sr-only'}>
            {replyTo ? `Replying to @${replyTo.author.username}` : 'Share something with your network.'}
          </DialogDescription>
        </DialogHeader>
        {replyTo && (
          <blockquote className="line-clamp-3 border-l-2 border-border pl-3 text-sm text-muted-foreground">
            {replyTo.content}
          </blockquote>
        )}
        <Composer
          key={replyTo?.id ?? 'new'}
          variant="dialog"
          replyToId={replyTo?.id ?? null}
          onPosted={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  )
}

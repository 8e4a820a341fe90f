import * as React from 'react'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import type { Post } from '@/lib/types'
import { Composer, type ComposerHandle } from './composer'
import { DiscardPostDialog } from './discard-post-dialog'

interface ComposeDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  replyTo?: Post
  /** The post the new one quotes (the card's Quote). */
  quoteOf?: Post
  /** What had focus when the dialog opened; it gets focus back when the dialog closes. */
  opener?: HTMLElement | null
}

/**
 * Where focus goes when the dialog closes: back to what opened it or, when a feed redrew it,
 * to the same button on the card replied to.
 */
function focusBack(opener: HTMLElement | null | undefined, replyTo: Post | undefined) {
  if (opener?.isConnected) return opener.focus()
  if (!replyTo) return
  const card = document.querySelector(`article[aria-labelledby="post-${replyTo.id}-author"]`)
  card?.querySelector<HTMLElement>('button[aria-label^="Reply ("]')?.focus()
}

/** "Create Post": the composer in a dialog, also used for replies. Closing it with something written asks first. */
export default function ComposeDialog({ open, onOpenChange, replyTo, quoteOf, opener }: ComposeDialogProps) {
  const composer = React.useRef<ComposerHandle>(null)
  const [asking, setAsking] = React.useState(false)

  function requestClose(next: boolean) {
    if (next) return
    if (composer.current?.hasContent()) setAsking(true)
    else onOpenChange(false)
  }

  return (
    <>
      <Dialog open={open} onOpenChange={requestClose}>
        <DialogContent
          className="sm:max-w-xl"
          // Writing starts in the text, also under a reply's warning (the first field).
          onOpenAutoFocus={(event) => {
            event.preventDefault()
            composer.current?.focus()
          }}
          // The dialog has no Radix trigger to give focus back to: it is opened from many places.
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            focusBack(opener, replyTo)
          }}
        >
          <DialogHeader>
            <DialogTitle>Create Post</DialogTitle>
            <DialogDescription className={replyTo ? undefined : 'sr-only'}>
              {replyTo ? `Replying to @${replyTo.author.username}` : 'Share something with your network.'}
            </DialogDescription>
          </DialogHeader>
          {replyTo && (
            <blockquote className="line-clamp-3 border-l-2 border-border pl-3 text-sm text-muted-foreground">
              {/* Behind its warning here too: the member may be answering the warning, not the post. */}
              {replyTo.spoilerText ? `Content warning: ${replyTo.spoilerText}` : replyTo.content}
            </blockquote>
          )}
          <Composer
            key={replyTo?.id ?? (quoteOf ? `quote-${quoteOf.id}` : 'new')}
            ref={composer}
            variant="dialog"
            replyToId={replyTo?.id ?? null}
            replyToWarning={replyTo?.spoilerText ?? null}
            quoteOf={quoteOf ?? null}
            onPosted={() => onOpenChange(false)}
          />
        </DialogContent>
      </Dialog>
      <DiscardPostDialog
        open={asking}
        onOpenChange={setAsking}
        onCloseAutoFocus={(event) => {
          // Keep editing: back to the text. After Discard the composer is gone and the dialog's own close decides.
          if (!composer.current) return
          event.preventDefault()
          composer.current.focus()
        }}
        onDiscard={() => {
          composer.current?.discard()
          setAsking(false)
          onOpenChange(false)
        }}
      />
    </>
  )
}

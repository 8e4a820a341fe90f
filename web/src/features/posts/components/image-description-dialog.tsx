import * as React from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Textarea } from '@/components/ui/textarea'
import { IMAGE_DESCRIPTION_MAX_LENGTH } from '@/lib/types'
import { cn } from '@/lib/utils'
import { descriptionLength } from '../lib/post-rules'

interface ImageDescriptionDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Which attached image, from 1. */
  position: number
  /** Null for an image a draft kept without its thumbnail: then no picture is shown. */
  previewUrl: string | null
  description: string
  onSave: (description: string) => void
}

/** Writes an attached image's description (its alt text): a textarea with the server's limit counted as it counts. */
export function ImageDescriptionDialog({
  open,
  onOpenChange,
  position,
  previewUrl,
  description,
  onSave,
}: ImageDescriptionDialogProps) {
  const id = React.useId()
  // Mounted per opening (the composer renders it only while describing): a cancelled edit is forgotten.
  const [draft, setDraft] = React.useState(description)
  const length = descriptionLength(draft)
  const tooLong = length > IMAGE_DESCRIPTION_MAX_LENGTH

  function save(event: React.FormEvent) {
    event.preventDefault()
    // The dialog is portalled out of the composer's form, but React still bubbles the submit to it.
    event.stopPropagation()
    if (tooLong) return
    onSave(draft.trim())
    onOpenChange(false)
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form onSubmit={save} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Describe image {position}</DialogTitle>
            <DialogDescription>
              Say what the image shows for people who cannot see it. It is read out by screen readers and shown when the
              image does not load.
            </DialogDescription>
          </DialogHeader>
          {previewUrl && (
            <img src={previewUrl} alt="" className="mx-auto max-h-40 w-auto max-w-full rounded-md bg-muted object-contain" />
          )}
          <div className="grid gap-1.5">
            <label htmlFor={`${id}-text`} className="text-sm font-medium">
              Description
            </label>
            <Textarea
              id={`${id}-text`}
              rows={5}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              aria-describedby={`${id}-counter`}
              aria-invalid={tooLong || undefined}
            />
            <span
              id={`${id}-counter`}
              className={cn('justify-self-end text-sm tabular-nums', tooLong ? 'font-semibold text-destructive' : 'text-muted-foreground')}
            >
              {length}/{IMAGE_DESCRIPTION_MAX_LENGTH}
            </span>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={tooLong}>
              Save description
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

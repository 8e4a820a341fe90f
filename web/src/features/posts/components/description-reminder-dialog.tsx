import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'

interface DescriptionReminderDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** How many attached images have no description. */
  missing: number
  onDescribe: () => void
  onPostAnyway: () => void
}

/** Asked once before posting an image without a description, while the reminder setting is on. */
export function DescriptionReminderDialog({ open, onOpenChange, missing, onDescribe, onPostAnyway }: DescriptionReminderDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add image descriptions?</DialogTitle>
          <DialogDescription>
            {missing === 1 ? 'An image has no description.' : `${missing} images have no description.`} A description
            tells people who use a screen reader what the image shows. You can turn this reminder off in Settings.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onPostAnyway}>
            Post anyway
          </Button>
          <Button type="button" onClick={onDescribe}>
            Add descriptions
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

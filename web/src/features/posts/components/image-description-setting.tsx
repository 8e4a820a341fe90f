import * as React from 'react'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { useDescriptionReminder } from '../lib/description-reminder'

/** The settings card of image descriptions: whether the composer reminds before posting an image without one. */
export function ImageDescriptionSetting() {
  const id = React.useId()
  const [remind, setRemind] = useDescriptionReminder()
  return (
    <Card role="region" aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle id={`${id}-title`}>Image descriptions</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-1">
        <div className="flex items-center gap-3">
          <input
            id={`${id}-remind`}
            type="checkbox"
            checked={remind}
            onChange={(e) => setRemind(e.target.checked)}
            aria-describedby={`${id}-hint`}
            className="size-5 shrink-0 accent-primary"
          />
          <label htmlFor={`${id}-remind`} className="font-medium">
            Remind me to add image descriptions
          </label>
        </div>
        <p id={`${id}-hint`} className="pl-8 text-sm text-muted-foreground">
          Asks once before you post an image without a description. Kept in this browser.
        </p>
      </CardContent>
    </Card>
  )
}

import * as React from 'react'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { toast } from '@/components/ui/use-toast'
import { messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useExpandWarnings, useSetExpandWarnings } from '../api/set-expand-warnings'

/** The settings card of content warnings: whether the member's cards open such posts at once. */
export function ContentWarningSetting() {
  const id = React.useId()
  const expand = useExpandWarnings()
  const setExpand = useSetExpandWarnings()
  return (
    <Card role="region" aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle id={`${id}-title`}>Content warnings</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-1">
        <div className="flex items-center gap-3">
          <input
            id={`${id}-expand`}
            type="checkbox"
            role="switch"
            checked={expand}
            onChange={(e) =>
              setExpand.mutate(e.target.checked, {
                onError: (error) => {
                  if (!handleUnauthorized(error))
                    toast({
                      title: 'Error',
                      description: messageOf(error, 'Failed to save the setting. Please try again.'),
                      variant: 'destructive',
                    })
                },
              })
            }
            aria-describedby={`${id}-hint`}
            className="size-5 shrink-0 accent-primary"
          />
          <label htmlFor={`${id}-expand`} className="font-medium">
            Always expand posts with content warnings
          </label>
        </div>
        <p id={`${id}-hint`} className="pl-8 text-sm text-muted-foreground">
          Shows such posts whole, under their warning, on every device you use.
        </p>
      </CardContent>
    </Card>
  )
}

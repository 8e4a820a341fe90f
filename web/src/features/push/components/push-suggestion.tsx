import * as React from 'react'
import { BellRing } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { toast } from '@/components/ui/use-toast'
import { useTurnOnPush } from '../api/turn-on-push'
import { useNotificationPermission } from '../lib/browser-push'
import { useSuggestionDismissed } from '../lib/suggestion'

/**
 * A quiet offer to turn on notifications on this device, for the notifications screen once there
 * is something in it: only while the browser has not been asked, and until "Not now". It asks
 * the browser nothing until "Turn on" is clicked.
 */
export function PushSuggestion() {
  const id = React.useId()
  const permission = useNotificationPermission()
  const [dismissed, dismiss] = useSuggestionDismissed()
  const turnOn = useTurnOnPush()
  if (permission !== 'default' || dismissed) return null
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mx-4 mt-4 flex items-start gap-3 rounded-xl border border-border bg-card p-4 text-card-foreground"
    >
      <BellRing className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
      <div className="grid min-w-0 flex-1 gap-3">
        <div className="grid gap-1">
          <h2 id={`${id}-title`} className="font-semibold">
            Get notified when Murmur is closed?
          </h2>
          <p className="text-sm text-muted-foreground">
            Replies, mentions and more on this device. You can choose which in Settings.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            disabled={turnOn.isPending}
            onClick={() =>
              turnOn.mutate(undefined, {
                onSuccess: (outcome) => {
                  if (outcome === 'on')
                    toast({ title: 'Notifications are on for this device', description: 'Choose which in Settings.' })
                },
              })
            }
          >
            {turnOn.isPending ? 'Turning on...' : 'Turn on'}
          </Button>
          <Button size="sm" variant="ghost" onClick={dismiss} disabled={turnOn.isPending}>
            Not now
          </Button>
        </div>
      </div>
    </section>
  )
}

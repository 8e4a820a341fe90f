import * as React from 'react'
import { ShieldAlert } from 'lucide-react'
import { endDate } from '@/lib/utils'
import { suspensionEnd } from '../lib/words'

/** What moderators see above a suspended member's profile (nobody else gets the profile). */
export function SuspensionNotice({ until }: { until: string }) {
  const [openedAt] = React.useState(Date.now)
  const end = endDate(until)
  // A suspension that has run out is no longer one.
  if (end && new Date(end).getTime() <= openedAt) return null
  return (
    <p role="status" className="flex items-center gap-2 bg-destructive/15 px-4 py-2 text-sm font-medium">
      <ShieldAlert className="size-4 shrink-0 text-destructive" aria-hidden="true" />
      Suspended {suspensionEnd(end)}
    </p>
  )
}

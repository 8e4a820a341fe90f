import * as React from 'react'
import { LoadError } from '@/components/load-error'
import { ShowMore } from '@/components/show-more'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useModerationLog } from '../api/get-log'
import { LogEntryItem } from './log-entry-item'

/** The public moderation log, newest first, page by page. */
export function ModerationLog() {
  const log = useModerationLog()
  React.useEffect(() => {
    if (log.error) handleUnauthorized(log.error)
  }, [log.error])
  if (log.isPending) {
    return (
      <p role="status" className="px-4 py-10 text-center text-muted-foreground">
        Loading...
      </p>
    )
  }
  if (log.error) return <LoadError what="The moderation log" onRetry={() => void log.refetch()} retrying={log.isRefetching} />
  const entries = log.data.pages.flat()
  return (
    <>
      <p className="border-b border-border px-4 py-3 text-sm text-muted-foreground">
        Every action moderators take, with their reason. Who reported what is never shown.
      </p>
      {entries.length === 0 ? (
        <p className="px-4 py-10 text-center text-muted-foreground">No moderation actions yet.</p>
      ) : (
        <ol aria-label="Moderation log" className="divide-y divide-border">
          {entries.map((entry) => (
            <LogEntryItem key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      <ShowMore hasNextPage={log.hasNextPage} isFetchingNextPage={log.isFetchingNextPage} fetchNextPage={log.fetchNextPage} />
    </>
  )
}

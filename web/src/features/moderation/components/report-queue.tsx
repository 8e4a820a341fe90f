import * as React from 'react'
import { CheckCircle2 } from 'lucide-react'
import { LoadError } from '@/components/load-error'
import { ShowMore } from '@/components/show-more'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useReports } from '../api/get-reports'
import { ReportGroupCard } from './report-group-card'

/** Open reports, one card per reported post or member, newest report first. */
export function ReportQueue() {
  const reports = useReports()
  React.useEffect(() => {
    if (reports.error) handleUnauthorized(reports.error)
  }, [reports.error])
  if (reports.isPending) {
    return (
      <p role="status" className="px-4 py-10 text-center text-muted-foreground">
        Loading...
      </p>
    )
  }
  if (reports.error) return <LoadError what="The reports" onRetry={() => void reports.refetch()} retrying={reports.isRefetching} />
  const groups = reports.data.pages.flat()
  return (
    <>
      {groups.length === 0 ? (
        <div className="grid justify-items-center gap-2 px-4 py-16 text-center">
          <CheckCircle2 className="size-10 text-muted-foreground" aria-hidden="true" />
          <p className="text-lg font-semibold">No open reports</p>
          <p className="text-muted-foreground">When members report a post or a member, it shows here.</p>
        </div>
      ) : (
        <div className="divide-y divide-border">
          {groups.map((group) => (
            <ReportGroupCard key={`${group.target}-${group.id}`} group={group} />
          ))}
        </div>
      )}
      <ShowMore
        hasNextPage={reports.hasNextPage}
        isFetchingNextPage={reports.isFetchingNextPage}
        fetchNextPage={reports.fetchNextPage}
      />
    </>
  )
}

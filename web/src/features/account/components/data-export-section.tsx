import * as React from 'react'
import { Download } from 'lucide-react'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { handleUnauthorized } from '@/lib/unauthorized'
import { dateTime } from '@/lib/utils'
import { useDataExport, type DataExport } from '../api/get-data-export'
import { useRequestDataExport } from '../api/request-data-export'

/** A size in bytes as people read it: "820 bytes", "14 KB", "3.2 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`
  return `${(bytes / 1_000_000_000).toFixed(1)} GB`
}

const WHAT = 'Your profile, posts with their images, likes, follows, followers and invites, as a zip file.'

function State({ state, requesting, request }: { state: DataExport; requesting: boolean; request: () => void }) {
  switch (state.status) {
    case 'pending':
      return (
        <p role="status" className="text-muted-foreground">
          Preparing your archive… We'll notify you and send you an e-mail when it's ready.
        </p>
      )
    case 'ready':
      return (
        <div className="grid justify-items-start gap-3">
          <p>
            Your archive is ready ({fileSize(state.size ?? 0)}). You can download it until{' '}
            {state.expiresAt ? dateTime(state.expiresAt) : 'it expires'}.
          </p>
          <Button asChild>
            <a href="/api/account/export/download" download>
              <Download aria-hidden="true" />
              Download
            </a>
          </Button>
        </div>
      )
    case 'failed':
      return (
        <div className="grid justify-items-start gap-3">
          <p role="alert">Your archive could not be prepared.</p>
          <Button variant="outline" onClick={request} disabled={requesting}>
            Try again
          </Button>
        </div>
      )
    default:
      return (
        <div className="grid justify-items-start gap-3">
          <p className="text-muted-foreground">{WHAT}</p>
          <Button onClick={request} disabled={requesting}>
            {requesting ? 'Requesting...' : 'Request my data'}
          </Button>
        </div>
      )
  }
}

/** "Download my data": ask for an archive, see it being prepared, download it when ready. */
export function DataExportSection() {
  const query = useDataExport()
  const request = useRequestDataExport()
  React.useEffect(() => {
    if (query.error) handleUnauthorized(query.error)
  }, [query.error])
  return (
    <Card role="region" aria-labelledby="data-export-title">
      <CardHeader>
        <CardTitle id="data-export-title">Download my data</CardTitle>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading...
          </p>
        ) : query.error ? (
          <LoadError what="Your data archive" onRetry={() => void query.refetch()} retrying={query.isRefetching} />
        ) : (
          <State state={query.data} requesting={request.isPending} request={() => request.mutate()} />
        )}
      </CardContent>
    </Card>
  )
}

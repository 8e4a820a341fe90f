import * as React from 'react'
import { AppWindow } from 'lucide-react'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { handleUnauthorized } from '@/lib/unauthorized'
import { dateTime, relativeTime } from '@/lib/utils'
import type { ConnectedApp } from '@/lib/types'
import { useConnectedApps, useDisconnectApp } from '../api/connected-apps'

/** The apps the member let in (Mastodon apps and others), each with Revoke. */
export function ConnectedAppsCard() {
  const apps = useConnectedApps()
  React.useEffect(() => {
    if (apps.error) handleUnauthorized(apps.error)
  }, [apps.error])
  return (
    <Card role="region" aria-labelledby="connected-apps-title">
      <CardHeader>
        <CardTitle id="connected-apps-title">Connected apps</CardTitle>
        <p className="text-sm text-muted-foreground">
          Apps you signed in to Murmur with (Mastodon apps work too). Logging out everywhere else revokes them all.
        </p>
      </CardHeader>
      <CardContent>
        {apps.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading...
          </p>
        ) : apps.error ? (
          <LoadError what="Connected apps" onRetry={() => void apps.refetch()} retrying={apps.isRefetching} />
        ) : apps.data.length === 0 ? (
          <p className="text-muted-foreground">No apps are connected.</p>
        ) : (
          <ul className="divide-y divide-border">
            {apps.data.map((app) => (
              <AppRow key={app.id} app={app} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

function AppRow({ app }: { app: ConnectedApp }) {
  const disconnect = useDisconnectApp()
  const [confirming, setConfirming] = React.useState(false)
  return (
    <li className="flex items-start gap-3 py-3">
      <AppWindow className="mt-0.5 size-6 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="break-words font-semibold">{app.name}</p>
        {app.website && <p className="break-all text-sm text-muted-foreground">{app.website}</p>}
        <p className="text-sm text-muted-foreground">
          Last used {relativeTime(app.lastUsedAt)} · Connected {dateTime(app.connectedAt)}
        </p>
        <ul className="mt-1 list-disc pl-5 text-sm text-muted-foreground">
          {app.abilities.map((ability) => (
            <li key={ability}>{ability}</li>
          ))}
        </ul>
      </div>
      <Button variant="outline" size="sm" aria-label={`Revoke ${app.name}`} onClick={() => setConfirming(true)}>
        Revoke
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Revoke ${app.name}?`}
        description={<>{app.name} will be signed out of your account at once. You can sign in with it again later.</>}
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
        pending={disconnect.isPending}
        onConfirm={() => disconnect.mutate(app, { onSuccess: () => setConfirming(false) })}
      />
    </li>
  )
}

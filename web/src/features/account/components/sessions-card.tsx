import * as React from 'react'
import { Monitor, Smartphone } from 'lucide-react'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { handleUnauthorized } from '@/lib/unauthorized'
import { dateTime, relativeTime } from '@/lib/utils'
import { useLogout } from '@/features/auth'
import { useEndOtherSessions } from '../api/end-other-sessions'
import { useEndSession } from '../api/end-session'
import { type MemberSession, useSessions } from '../api/get-sessions'
import { deviceName, isHandheld, lastActive } from '../lib/device-name'

/**
 * The member's sessions, each with Log out, and "Log out everywhere else" after a confirm.
 * "Log out" on this device's own row is the ordinary logout (the member leaves for the landing
 * page), so no session is ever ended from under the page that shows it.
 */
export function SessionsCard() {
  const sessions = useSessions()
  const [confirming, setConfirming] = React.useState(false)
  React.useEffect(() => {
    if (sessions.error) handleUnauthorized(sessions.error)
  }, [sessions.error])
  const list = sessions.data ?? []
  const others = list.filter((s) => !s.current).length
  return (
    <Card role="region" aria-labelledby="sessions-title">
      <CardHeader>
        <CardTitle id="sessions-title">Sessions</CardTitle>
        <p className="text-sm text-muted-foreground">
          The browsers and devices where you&apos;re logged in. &ldquo;Last active&rdquo; is updated at most every 5
          minutes.
        </p>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading...
          </p>
        ) : sessions.error ? (
          <LoadError what="Sessions" onRetry={() => void sessions.refetch()} retrying={sessions.isRefetching} />
        ) : (
          <ul className="divide-y divide-border">
            {list.map((session) => (
              <SessionRow key={session.id} session={session} />
            ))}
          </ul>
        )}
        {others > 0 && (
          <div className="mt-3 flex justify-end">
            <Button variant="outline" onClick={() => setConfirming(true)}>
              Log out everywhere else
            </Button>
          </div>
        )}
      </CardContent>
      <LogOutEverywhereElseDialog open={confirming} onOpenChange={setConfirming} others={others} />
    </Card>
  )
}

function SessionRow({ session }: { session: MemberSession }) {
  const end = useEndSession()
  const logout = useLogout()
  const name = deviceName(session)
  const Icon = isHandheld(session) ? Smartphone : Monitor
  const started = dateTime(session.createdAt)
  const pending = session.current ? logout.isPending : end.isPending
  return (
    <li className="flex items-center gap-3 py-3">
      <Icon className="size-6 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-x-2 font-semibold">
          <span className="break-words">{name}</span>
          {session.current && (
            <span className="rounded-full bg-primary/15 px-2 py-0.5 text-xs font-medium text-primary">This device</span>
          )}
        </p>
        <p className="text-sm text-muted-foreground">
          {lastActive(session, (iso) => relativeTime(iso))}
          {session.network && ` · ${session.network}`} · Logged in {started}
          {session.signedInWith === 'passkey' ? ' with a passkey' : ''}
        </p>
      </div>
      <Button
        variant="outline"
        size="sm"
        aria-label={session.current ? 'Log out this device' : `Log out ${name}, logged in ${started}`}
        disabled={pending}
        onClick={() => (session.current ? logout.mutate() : end.mutate(session))}
      >
        {pending ? 'Logging out...' : 'Log out'}
      </Button>
    </li>
  )
}

function LogOutEverywhereElseDialog({
  open,
  onOpenChange,
  others,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  others: number
}) {
  const endOthers = useEndOtherSessions()
  const id = React.useId()
  const [removePasskeys, setRemovePasskeys] = React.useState(false)
  // Each time it opens, the choice starts unticked.
  const changeOpen = (next: boolean) => {
    if (!next) setRemovePasskeys(false)
    onOpenChange(next)
  }
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={changeOpen}
      title="Log out everywhere else?"
      description={
        <>
          {others === 1 ? 'Your other session' : `Your ${others} other sessions`} will be logged out at once, on every
          browser and device but this one. You stay logged in here.
        </>
      }
      confirmLabel="Log out everywhere else"
      pendingLabel="Logging out..."
      pending={endOthers.isPending}
      onConfirm={() => endOthers.mutate(removePasskeys, { onSuccess: () => changeOpen(false) })}
    >
      <div className="grid gap-1">
        <div className="flex items-center gap-3">
          <input
            id={`${id}-passkeys`}
            type="checkbox"
            checked={removePasskeys}
            onChange={(e) => setRemovePasskeys(e.target.checked)}
            aria-describedby={`${id}-passkeys-hint`}
            className="size-5 shrink-0 accent-primary"
          />
          <label htmlFor={`${id}-passkeys`} className="font-medium">
            Also remove all passkeys
          </label>
        </div>
        <p id={`${id}-passkeys-hint`} className="pl-8 text-sm text-muted-foreground">
          A passkey signs in again after this. If someone may have added one, remove them all; you can add yours again
          here.
        </p>
      </div>
    </ConfirmDialog>
  )
}

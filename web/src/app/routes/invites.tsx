import { Check, Ticket } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { shortDate } from '@/lib/utils'
import type { Invite } from '@/lib/types'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useCreateInvite } from '@/features/invites/api/create-invite'
import { useInvites } from '@/features/invites/api/get-invites'
import { CopyInviteButton } from '@/features/invites/components/copy-invite-button'
import { PageHeader } from './page-header'

const isActive = (invite: Invite) => !invite.isUsed && new Date(invite.expiresAt).getTime() > Date.now()

export default function InvitesRoute() {
  const { data: me, isPending } = useCurrentUser()
  const invites = useInvites(Boolean(me))
  const create = useCreateInvite()
  const available = me?.invitesAvailable ?? 0
  const active = invites.data?.filter(isActive) ?? []
  const used = invites.data?.filter((invite) => invite.isUsed) ?? []

  return (
    <>
      <PageHeader title="Invite Friends" />
      {isPending ? null : !me ? (
        <p className="px-4 py-10 text-center text-muted-foreground">Please log in to see your invites.</p>
      ) : (
        <div className="grid gap-4 p-4">
          <Card>
            <CardContent className="flex flex-col items-start gap-3 pt-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex items-center gap-3">
                <Ticket className="size-8 text-primary" aria-hidden="true" />
                <div>
                  <p className="text-2xl font-bold">{available}</p>
                  <p className="text-sm text-muted-foreground">
                    {available === 1 ? 'invite available' : 'invites available'}
                  </p>
                </div>
              </div>
              <Button onClick={() => create.mutate()} disabled={available <= 0 || create.isPending}>
                {create.isPending ? 'Generating...' : 'Generate Invite Code'}
              </Button>
            </CardContent>
          </Card>
          <p className="text-sm text-muted-foreground">
            Invite codes expire after 7 days. You get 3 more invites next month.
          </p>

          <Card>
            <CardHeader>
              <CardTitle>Active Invites</CardTitle>
            </CardHeader>
            <CardContent>
              {invites.isPending ? (
                <p role="status" className="text-muted-foreground">
                  Loading...
                </p>
              ) : active.length === 0 ? (
                <p className="text-muted-foreground">No active invites.</p>
              ) : (
                <ul className="divide-y divide-border">
                  {active.map((invite) => (
                    <li key={invite.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
                      <div className="min-w-0">
                        <p className="font-mono text-lg tracking-wider break-all">{invite.code}</p>
                        <p className="text-xs text-muted-foreground">Expires {shortDate(invite.expiresAt)}</p>
                      </div>
                      <div className="flex shrink-0 flex-wrap justify-end gap-2">
                        <CopyInviteButton code={invite.code} />
                        <CopyInviteButton code={invite.code} what="link" />
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Used Invites</CardTitle>
            </CardHeader>
            <CardContent>
              {used.length === 0 ? (
                <p className="text-muted-foreground">No used invites yet.</p>
              ) : (
                <ul className="divide-y divide-border">
                  {used.map((invite) => (
                    <li key={invite.id} className="flex items-center justify-between gap-3 py-2">
                      <div className="min-w-0">
                        <p className="font-mono text-lg tracking-wider text-muted-foreground line-through break-all">
                          {invite.code}
                        </p>
                        <p className="text-xs text-muted-foreground">
                          Used on {invite.usedAt ? shortDate(invite.usedAt) : 'Unknown'}
                        </p>
                      </div>
                      <span className="inline-flex items-center gap-1 rounded-full bg-repost/15 px-2 py-0.5 text-xs font-semibold text-foreground">
                        <Check className="size-3.5" aria-hidden="true" /> Claimed
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </div>
      )}
    </>
  )
}

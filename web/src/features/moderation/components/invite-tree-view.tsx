import * as React from 'react'
import { Link } from 'wouter'
import { LoadError } from '@/components/load-error'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { ApiError } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { cn, plural } from '@/lib/utils'
import type { TreeMember } from '@/lib/types'
import { useInviteTree } from '../api/get-invite-tree'
import { ModerationActions } from './moderation-actions'

function Badge({ children, warn }: { children: React.ReactNode; warn?: boolean }) {
  return (
    <span
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-medium',
        warn ? 'bg-destructive/15 text-foreground' : 'bg-muted text-muted-foreground',
      )}
    >
      {children}
    </span>
  )
}

/** A member of the tree: name, standing, and how many they invited; a link walks the tree to them. */
function TreeMemberLine({ member, linked = true }: { member: TreeMember; linked?: boolean }) {
  const name = (
    <>
      <span className="block truncate font-semibold">{member.displayName}</span>{' '}
      <span className="block truncate text-sm text-muted-foreground">@{member.username}</span>
    </>
  )
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 py-2">
      {linked ? (
        <Link
          href={`/moderation/members/${member.id}`}
          className="min-w-0 rounded-sm hover:underline"
          aria-label={`${member.displayName} @${member.username}, invite tree`}
        >
          {name}
        </Link>
      ) : (
        <div className="min-w-0">{name}</div>
      )}
      <div className="flex flex-wrap gap-1.5">
        <Badge warn={member.status === 'suspended'}>{member.status === 'suspended' ? 'Suspended' : 'Active'}</Badge>
        {member.invitesTaken && <Badge warn>Invites taken</Badge>}
        <Badge>Invited {member.invitedCount}</Badge>
      </div>
    </div>
  )
}

/** A member's branch of the invite tree: who brought them in, whom they brought, and the actions. */
export function InviteTreeView({ memberId }: { memberId: number }) {
  const tree = useInviteTree(memberId)
  React.useEffect(() => {
    if (tree.error) handleUnauthorized(tree.error)
  }, [tree.error])
  if (tree.isPending) {
    return (
      <p role="status" className="px-4 py-10 text-center text-muted-foreground">
        Loading...
      </p>
    )
  }
  if (tree.error) {
    if (tree.error instanceof ApiError && tree.error.status === 404)
      return <p className="px-4 py-10 text-center text-muted-foreground">User not found.</p>
    return <LoadError what="The invite tree" onRetry={() => void tree.refetch()} retrying={tree.isRefetching} />
  }
  const { member, invitedBy, invited } = tree.data
  const handle = `@${member.username}`
  return (
    <div className="grid gap-4 p-4">
      <Card role="region" aria-labelledby="tree-invited-by">
        <CardHeader>
          <CardTitle id="tree-invited-by">Invited by</CardTitle>
        </CardHeader>
        <CardContent>
          {invitedBy ? <TreeMemberLine member={invitedBy} /> : <p className="text-muted-foreground">The instance</p>}
        </CardContent>
      </Card>
      <Card role="region" aria-labelledby="tree-member">
        <CardHeader>
          <CardTitle id="tree-member">{handle}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3">
          <TreeMemberLine member={member} linked={false} />
          <Link href={`/profile/${member.username}`} className="justify-self-start text-sm text-primary hover:underline">
            Profile of {handle}
          </Link>
          <ModerationActions
            member={member}
            suspended={member.status === 'suspended'}
            invitesTaken={member.invitesTaken}
            label={`Actions on ${handle}`}
          />
        </CardContent>
      </Card>
      <Card role="region" aria-labelledby="tree-invited">
        <CardHeader>
          <CardTitle id="tree-invited">Invited {plural(invited.length, 'member')}</CardTitle>
        </CardHeader>
        <CardContent>
          {invited.length === 0 ? (
            <p className="text-muted-foreground">{handle} has not invited anyone.</p>
          ) : (
            <ul className="divide-y divide-border">
              {invited.map((child) => (
                <li key={child.id}>
                  <TreeMemberLine member={child} />
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  )
}

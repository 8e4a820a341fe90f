import * as React from 'react'
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query'
import { LoadError } from '@/components/load-error'
import { ShowMore } from '@/components/show-more'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { handleUnauthorized } from '@/lib/unauthorized'
import { dateTime, endDate } from '@/lib/utils'
import type { BlockedMember, MutedMember, User } from '@/lib/types'
import { UserRow } from '@/features/users'
import { useBlocks } from '../api/get-blocks'
import { useMutes } from '../api/get-mutes'
import { useUnblockMember } from '../api/unblock-member'
import { useUnmuteMember } from '../api/unmute-member'

/** A card listing members page by page, each with an action. */
function MemberList<T extends { user: User }>({
  id,
  title,
  query,
  empty,
  row,
}: {
  id: string
  title: string
  query: UseInfiniteQueryResult<InfiniteData<T[], unknown>, Error>
  empty: string
  row: (item: T) => React.ReactNode
}) {
  React.useEffect(() => {
    if (query.error) handleUnauthorized(query.error)
  }, [query.error])
  const items = query.data?.pages.flat() ?? []
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading...
          </p>
        ) : query.error ? (
          <LoadError what={title} onRetry={() => void query.refetch()} retrying={query.isRefetching} />
        ) : items.length === 0 ? (
          <p className="text-muted-foreground">{empty}</p>
        ) : (
          <ul className="divide-y divide-border">{items.map(row)}</ul>
        )}
        <ShowMore
          hasNextPage={query.hasNextPage}
          isFetchingNextPage={query.isFetchingNextPage}
          fetchNextPage={query.fetchNextPage}
        />
      </CardContent>
    </Card>
  )
}

/** The members the viewer blocked, each with Unblock. */
export function BlockedMembers() {
  const blocks = useBlocks()
  const unblock = useUnblockMember()
  return (
    <MemberList<BlockedMember>
      id="blocked-members-title"
      title="Blocked members"
      query={blocks}
      empty="You haven't blocked anyone."
      row={({ user }) => (
        <UserRow
          key={user.id}
          user={user}
          action={
            <Button
              variant="outline"
              size="sm"
              aria-label={`Unblock @${user.username}`}
              disabled={unblock.isPending && unblock.variables?.id === user.id}
              onClick={() => unblock.mutate(user)}
            >
              Unblock
            </Button>
          }
        />
      )}
    />
  )
}

/** When a mute ends, in words. */
export function muteEnds(expiresAt?: string | null): string {
  const end = endDate(expiresAt)
  return end ? `Muted until ${dateTime(end)}` : 'Muted until you unmute'
}

/** The members the viewer has muted, with when each mute ends, each with Unmute. */
export function MutedMembers() {
  const mutes = useMutes()
  const unmute = useUnmuteMember()
  return (
    <MemberList<MutedMember>
      id="muted-members-title"
      title="Muted members"
      query={mutes}
      empty="You haven't muted anyone."
      row={({ user, expiresAt }) => (
        <UserRow
          key={user.id}
          user={user}
          detail={muteEnds(expiresAt)}
          action={
            <Button
              variant="outline"
              size="sm"
              aria-label={`Unmute @${user.username}`}
              disabled={unmute.isPending && unmute.variables?.id === user.id}
              onClick={() => unmute.mutate(user)}
            >
              Unmute
            </Button>
          }
        />
      )}
    />
  )
}

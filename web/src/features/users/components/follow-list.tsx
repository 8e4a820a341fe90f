import * as React from 'react'
import { LoadError } from '@/components/load-error'
import { ShowMore } from '@/components/show-more'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { User } from '@/lib/types'
import type { FollowList as FollowListKind } from '@/lib/query-keys'
import { useFollowList } from '../api/get-follow-list'
import { FollowAction } from './follow-action'
import { UserRow } from './user-row'

const titles: Record<FollowListKind, string> = { followers: 'Followers', following: 'Following' }
const empties: Record<FollowListKind, string> = {
  followers: 'No followers yet.',
  following: 'Not following anyone yet.',
}

/** A profile's followers or the people it follows, each with a Follow button, a page at a time. */
export function FollowList({ username, list, me }: { username: string; list: FollowListKind; me: User | null | undefined }) {
  const query = useFollowList(username, list)
  React.useEffect(() => {
    if (query.error) handleUnauthorized(query.error)
  }, [query.error])
  const members = query.data?.pages.flat() ?? []
  return (
    <section aria-label={titles[list]}>
      {query.isPending ? (
        <p role="status" className="px-4 py-8 text-center text-muted-foreground">
          Loading...
        </p>
      ) : query.error ? (
        <LoadError what={titles[list]} onRetry={() => void query.refetch()} retrying={query.isRefetching} />
      ) : members.length === 0 ? (
        <p className="px-4 py-8 text-center text-muted-foreground">{empties[list]}</p>
      ) : (
        <ul className="divide-y divide-border px-4">
          {members.map((user) => (
            <UserRow key={user.id} user={user} action={me && <FollowAction user={user} me={me} />} />
          ))}
        </ul>
      )}
      <ShowMore hasNextPage={query.hasNextPage} isFetchingNextPage={query.isFetchingNextPage} fetchNextPage={query.fetchNextPage} />
    </section>
  )
}

export { titles as followListTitles }

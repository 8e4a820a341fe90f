import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import type { User } from '@/lib/types'
import { useSearchUsers } from '../api/search-users'
import { FollowAction } from './follow-action'
import { UserRow } from './user-row'

/** The members whose name or username matches `term`. */
export function SearchResults({ term, me }: { term: string; me: User }) {
  const results = useSearchUsers(term)
  return (
    <Card role="region" aria-labelledby="search-results-title">
      <CardHeader>
        <CardTitle id="search-results-title">Search Results</CardTitle>
      </CardHeader>
      <CardContent>
        {results.isFetching ? (
          <p role="status" className="text-muted-foreground">
            Searching...
          </p>
        ) : results.error ? (
          <p role="alert" className="text-destructive">
            {results.error.message}
          </p>
        ) : results.data && results.data.length > 0 ? (
          <ul className="divide-y divide-border">
            {results.data.map((user) => (
              <UserRow key={user.id} user={user} action={<FollowAction user={user} me={me} />} />
            ))}
          </ul>
        ) : (
          <p className="text-muted-foreground">No users found matching "{term}"</p>
        )}
      </CardContent>
    </Card>
  )
}

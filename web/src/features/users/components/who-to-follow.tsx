import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import type { User } from '@/lib/types'
import { useSuggestedUsers } from '../api/get-suggested'
import { FollowAction } from './follow-action'
import { UserRow } from './user-row'

/** Members suggested to follow. */
export function WhoToFollow({ me }: { me: User }) {
  const suggested = useSuggestedUsers()
  return (
    <Card role="region" aria-labelledby="who-to-follow-title">
      <CardHeader>
        <CardTitle id="who-to-follow-title">Who to follow</CardTitle>
      </CardHeader>
      <CardContent>
        {suggested.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading suggestions...
          </p>
        ) : !suggested.data || suggested.data.length === 0 ? (
          <p className="text-muted-foreground">No suggestions available.</p>
        ) : (
          <ul className="divide-y divide-border">
            {suggested.data.map((user) => (
              <UserRow key={user.id} user={user} action={<FollowAction user={user} me={me} />} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

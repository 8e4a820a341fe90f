import { Link } from 'wouter'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import type { User } from '@/lib/types'
import { useStarterPack } from '../api/get-starter-pack'
import { FollowAction } from './follow-action'
import { UserRow } from './user-row'
import { WhoToFollow } from './who-to-follow'

/** Home greets a member until they follow this many people besides their inviter. */
export const WELCOME_UNTIL_FOLLOWING = 3

/**
 * Whether Home greets the member: until they follow a few people besides their inviter (sign-up
 * with an invite follows the inviter). Undefined while the inviter is not known yet.
 */
export function useNeedsWelcome(me: User): boolean | undefined {
  const mayNeed = me.followingCount < WELCOME_UNTIL_FOLLOWING + 1
  const pack = useStarterPack(mayNeed)
  if (!mayNeed) return false
  if (pack.isPending) return undefined
  return me.followingCount - (pack.data?.inviter ? 1 : 0) < WELCOME_UNTIL_FOLLOWING
}

/**
 * Above a new member's feed while they need it: the people their inviter follows and who to
 * follow, so the first Home is not an empty list.
 */
export function Welcome({ me, withSuggestions = true }: { me: User; withSuggestions?: boolean }) {
  const needed = useNeedsWelcome(me)
  const pack = useStarterPack(needed === true)
  if (!needed) return null
  if (!withSuggestions && !pack.data?.inviter) return null
  const inviter = pack.data?.inviter
  const members = pack.data?.members ?? []
  return (
    <div className="grid gap-4 p-4">
      {inviter && members.length > 0 && (
        <Card role="region" aria-labelledby="starter-pack-title">
          <CardHeader>
            <CardTitle id="starter-pack-title">People your inviter follows</CardTitle>
            <p className="text-sm text-muted-foreground">
              <Link href={`/profile/${inviter.username}`} className="font-semibold text-foreground hover:underline">
                {inviter.displayName}
              </Link>{' '}
              invited you. Here are people they follow.
            </p>
          </CardHeader>
          <CardContent>
            <ul className="divide-y divide-border">
              {members.map((user) => (
                <UserRow key={user.id} user={user} action={<FollowAction user={user} me={me} />} />
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
      {withSuggestions && <WhoToFollow me={me} />}
    </div>
  )
}

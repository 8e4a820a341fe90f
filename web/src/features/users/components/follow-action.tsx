import { FollowButton } from '@/features/follows'
import type { User } from '@/lib/types'

/** The follow button beside a member in a list; none beside the member themself. */
export function FollowAction({ user, me }: { user: User; me: User }) {
  if (user.id === me.id) return null
  return <FollowButton userId={user.id} displayName={user.displayName} />
}

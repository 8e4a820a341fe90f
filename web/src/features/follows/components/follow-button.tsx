import { Button } from '@/components/ui/button'
import { useFollowStatus } from '../api/get-follow-status'
import { useToggleFollow } from '../api/toggle-follow'

interface FollowButtonProps {
  userId: number
  displayName: string
  size?: 'sm' | 'default'
}

/** Follow, Following, or Loading...; not shown for oneself (the caller decides). */
export function FollowButton({ userId, displayName, size = 'sm' }: FollowButtonProps) {
  const status = useFollowStatus(userId)
  const toggle = useToggleFollow(userId)
  const following = status.data?.isFollowing ?? false
  const loading = status.isPending || toggle.isPending
  return (
    <Button
      size={size}
      variant={following ? 'outline' : 'default'}
      className="rounded-full"
      disabled={loading}
      aria-label={loading ? undefined : following ? `Following ${displayName}, unfollow` : `Follow ${displayName}`}
      onClick={() => toggle.mutate(!following)}
    >
      {loading ? 'Loading...' : following ? 'Following' : 'Follow'}
    </Button>
  )
}

import * as React from 'react'
import { Link, useLocation, useParams } from 'wouter'
import { ArrowLeft } from 'lucide-react'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { ApiError } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { ProfileTabs } from '@/features/posts/components/profile-tabs'
import { MessageButton } from '@/features/messages'
import { SuspensionNotice } from '@/features/moderation/components/suspension-notice'
import { MemberMenu } from '@/features/safety/components/member-menu'
import { BlockedByNotice, YouBlockedNotice } from '@/features/safety/components/profile-notices'
import { useProfile } from '@/features/users/api/get-profile'
import { ProfileHeader } from '@/features/users/components/profile-header'
import { PageHeader } from './page-header'

/** The server's answer for a suspended member's profile (moderators still get the profile). */
const SUSPENDED = 'This account is suspended'

export default function ProfileRoute() {
  const params = useParams<{ username: string }>()
  const username = decodeURIComponent(params.username ?? '')
  const { data: me } = useCurrentUser()
  const profile = useProfile(username)
  const [, navigate] = useLocation()
  const answered = profile.data?.username

  // An old username answers for 30 days after a rename: show the address under the new one.
  React.useEffect(() => {
    if (answered && answered !== username) navigate(`/profile/${encodeURIComponent(answered)}`, { replace: true })
  }, [answered, username, navigate])

  React.useEffect(() => {
    if (profile.error) handleUnauthorized(profile.error)
  }, [profile.error])

  const back = (
    <Button asChild variant="ghost" size="icon" aria-label="Back to home">
      <Link href="/">
        <ArrowLeft className="size-5" aria-hidden="true" />
      </Link>
    </Button>
  )

  if (profile.isPending) {
    return (
      <>
        <PageHeader title="Profile" before={back} />
        <p role="status" className="px-4 py-10 text-center text-muted-foreground">
          Loading profile...
        </p>
      </>
    )
  }
  if (profile.error || !profile.data) {
    const missing = !profile.error || (profile.error instanceof ApiError && profile.error.status === 404)
    const suspended = profile.error instanceof ApiError && profile.error.serverMessage === SUSPENDED
    return (
      <>
        <PageHeader title="Profile" before={back} />
        {suspended ? (
          <div role="status" className="grid gap-1 px-4 py-10 text-center">
            <p className="text-lg font-semibold">{SUSPENDED}</p>
            <p className="text-muted-foreground">Its posts and profile are hidden while it is suspended.</p>
          </div>
        ) : missing ? (
          <p className="px-4 py-10 text-center text-muted-foreground">User not found.</p>
        ) : (
          <LoadError what="This profile" onRetry={() => void profile.refetch()} retrying={profile.isRefetching} />
        )}
      </>
    )
  }
  const user = profile.data
  const isOwn = me?.username === user.username
  const isOther = Boolean(me) && !isOwn
  const reachable = isOther && !user.isBlocking && !user.isBlockedBy
  return (
    <>
      <PageHeader title={user.displayName} before={back} />
      {user.suspendedUntil && <SuspensionNotice until={user.suspendedUntil} />}
      <ProfileHeader
        user={user}
        isOwn={isOwn}
        canFollow={reachable}
        menu={isOther ? (trigger) => <MemberMenu member={user} trigger={trigger} /> : undefined}
        actions={reachable && !user.isSuspended ? <MessageButton userId={user.id} username={user.username} /> : undefined}
      />
      {user.isBlocking ? (
        <YouBlockedNotice member={user} />
      ) : user.isBlockedBy ? (
        <BlockedByNotice />
      ) : (
        <ProfileTabs username={user.username} currentUserId={me?.id} />
      )}
    </>
  )
}

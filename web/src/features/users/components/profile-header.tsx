import * as React from 'react'
import { Link } from 'wouter'
import { CalendarDays, Camera, ImageUp, Link as LinkIcon, MoreHorizontal, Ticket } from 'lucide-react'
import { Avatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { monthYear, withoutScheme } from '@/lib/utils'
import type { Profile } from '@/lib/types'
import { FollowButton } from '@/features/follows'
import { ImageChangeButton } from './image-change-button'

const EditProfileDialog = React.lazy(() => import('./edit-profile-dialog'))

/** "Invited by @x", or by the instance's operator; nothing while not known. */
function InvitedBy({ username }: { username: string | null | undefined }) {
  if (username === undefined) return null
  return (
    <span className="inline-flex items-center gap-1">
      <Ticket className="size-4" aria-hidden="true" />
      {username === null ? (
        'Invited by the instance'
      ) : (
        <span>
          Invited by{' '}
          <Link href={`/profile/${username}`} className="text-primary underline underline-offset-2">
            @{username}
          </Link>
        </span>
      )}
    </span>
  )
}

interface ProfileHeaderProps {
  user: Profile
  isOwn: boolean
  canFollow: boolean
  /**
   * The "…" menu (mute, block, report) for another member, given the button that opens it.
   * app/ composes it: safety sits above users (web/README.md, "Layout").
   */
  menu?: (trigger: React.ReactElement) => React.ReactNode
  /** Another member's own buttons beside Follow (Message), composed by app/ as the menu is. */
  actions?: React.ReactNode
}

/** The member's header image, picture, names, bio, links and counts; their own can be edited here. */
export function ProfileHeader({ user, isOwn, canFollow, menu, actions }: ProfileHeaderProps) {
  const [editing, setEditing] = React.useState(false)
  return (
    <section aria-label="Profile">
      <div className="relative aspect-[3/1] w-full bg-gradient-to-br from-primary/40 to-primary/10">
        {user.headerImageUrl && (
          <img src={user.headerImageUrl} alt="" width={1500} height={500} className="size-full object-cover" />
        )}
        {isOwn && (
          <ImageChangeButton kind="header">
            {(open) => (
              <Button size="sm" variant="secondary" className="absolute right-3 top-3 opacity-90" onClick={open}>
                <ImageUp aria-hidden="true" /> Change header
              </Button>
            )}
          </ImageChangeButton>
        )}
      </div>
      <div className="px-4 pb-4">
        <div className="flex items-end justify-between">
          <div className="relative -mt-12 rounded-full border-4 border-background bg-background sm:-mt-16">
            <Avatar name={user.displayName} src={user.profileImageUrl} size={112} className="size-24 text-4xl sm:size-28" />
            {isOwn && (
              <ImageChangeButton kind="profile">
                {(open) => (
                  <Button
                    size="icon"
                    variant="secondary"
                    className="absolute bottom-0 right-0 size-9 rounded-full"
                    aria-label="Change profile picture"
                    onClick={open}
                  >
                    <Camera aria-hidden="true" />
                  </Button>
                )}
              </ImageChangeButton>
            )}
          </div>
          <div className="mt-3 flex items-center gap-2">
            {menu?.(
              <Button variant="outline" size="icon" className="rounded-full" aria-label={`More actions for @${user.username}`}>
                <MoreHorizontal aria-hidden="true" />
              </Button>,
            )}
            {!isOwn && actions}
            {isOwn ? (
              <Button variant="outline" className="rounded-full" onClick={() => setEditing(true)}>
                Edit Profile
              </Button>
            ) : (
              canFollow && <FollowButton userId={user.id} displayName={user.displayName} size="default" />
            )}
          </div>
        </div>
        <h2 className="mt-3 text-2xl font-bold">{user.displayName}</h2>
        <p className="text-muted-foreground">@{user.username}</p>
        {user.bio && <p className="mt-3 whitespace-pre-wrap break-words">{user.bio}</p>}
        <div className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
          {user.website && (
            <a
              href={user.website}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 text-primary hover:underline"
            >
              <LinkIcon className="size-4" aria-hidden="true" />
              {withoutScheme(user.website)}
            </a>
          )}
          <span className="inline-flex items-center gap-1">
            <CalendarDays className="size-4" aria-hidden="true" />
            Joined {monthYear(user.createdAt)}
          </span>
          <InvitedBy username={user.invitedBy} />
        </div>
        <p className="mt-3 flex gap-4 text-sm">
          <Link href={`/profile/${user.username}/following`} className="rounded-sm hover:underline">
            <strong className="font-semibold">{user.followingCount}</strong>{' '}
            <span className="text-muted-foreground">Following</span>
          </Link>
          <Link href={`/profile/${user.username}/followers`} className="rounded-sm hover:underline">
            <strong className="font-semibold">{user.followerCount}</strong>{' '}
            <span className="text-muted-foreground">{user.followerCount === 1 ? 'Follower' : 'Followers'}</span>
          </Link>
        </p>
      </div>
      {isOwn && editing && (
        <React.Suspense fallback={null}>
          <EditProfileDialog user={user} open={editing} onOpenChange={setEditing} />
        </React.Suspense>
      )}
    </section>
  )
}

import { useLocation } from 'wouter'
import { AtSign, Download, Heart, MessageCircle, Quote, Repeat2, ShieldAlert, UserPlus } from 'lucide-react'
import { Avatar } from '@/components/ui/avatar'
import { cn, relativeTime } from '@/lib/utils'
import type { Notification, NotificationType } from '@/lib/types'
import { useMarkRead } from '../api/mark-read'

interface Kind {
  icon: typeof Heart
  text: string
  colour: string
}

const kinds: Record<NotificationType, Kind> = {
  follow: { icon: UserPlus, text: 'followed you', colour: 'text-primary' },
  like: { icon: Heart, text: 'liked your post', colour: 'text-like' },
  reply: { icon: MessageCircle, text: 'replied to your post', colour: 'text-primary' },
  repost: { icon: Repeat2, text: 'reposted your post', colour: 'text-repost' },
  mention: { icon: AtSign, text: 'mentioned you', colour: 'text-primary' },
  quote: { icon: Quote, text: 'quoted your post', colour: 'text-repost' },
  removed: { icon: ShieldAlert, text: 'removed your post', colour: 'text-destructive' },
  'export-ready': { icon: Download, text: 'Your data archive is ready to download', colour: 'text-primary' },
}

/** Notices about the member's own account: no one else did anything. */
const aboutYourself = (type: string) => type === 'export-ready'

/** The document types `type` as any string: one this app does not know reads as a mention. */
const kindOf = (type: string) => (kinds as Partial<Record<string, Kind>>)[type] ?? kinds.mention

/** Where opening a notification goes. */
function destination(notification: Notification): string {
  if (notification.type === 'export-ready') return '/settings'
  return notification.post ? `/post/${notification.post.id}` : `/profile/${notification.actor.username}`
}

/** Who did it: "Ada", "Ada and Bob", "Ada and 4 others" (the newest named first). */
function Actors({ notification }: { notification: Notification }) {
  const [newest, second] = notification.actors
  const name = (actor: typeof notification.actor) => <strong className="font-semibold">{actor.displayName}</strong>
  const others = notification.count - 1
  if (others === 0 || !newest) return name(newest ?? notification.actor)
  if (others === 1 && second)
    return (
      <>
        {name(newest)} and {name(second)}
      </>
    )
  return (
    <>
      {name(newest)} and {others} {others === 1 ? 'other' : 'others'}
    </>
  )
}

/**
 * What happened, in words: "<name> liked your post", "<name> and 4 others liked your post"; a
 * removal is told as the moderators' act, not one member's; a notice about the member's own
 * account names no one.
 */
function Summary({ notification, text }: { notification: Notification; text: string }) {
  if (aboutYourself(notification.type)) return <>{text}</>
  if (notification.type === 'removed') {
    return (
      <>
        Moderators {text}
        {notification.reason && `: ${notification.reason}`}
      </>
    )
  }
  return (
    <>
      <Actors notification={notification} /> {text}
    </>
  )
}

/**
 * One notification, or a group of them (the likes of one post); opening it marks it read and
 * goes to the post or the member. One that `arrived` while the list was open slides in.
 */
export function NotificationItem({ notification, arrived = false }: { notification: Notification; arrived?: boolean }) {
  const [, navigate] = useLocation()
  const markRead = useMarkRead()
  const kind = kindOf(notification.type)
  const Icon = kind.icon

  function open() {
    if (!notification.isRead) markRead.mutate(notification)
    navigate(destination(notification))
  }

  return (
    <li className={cn(arrived && 'animate-arrive motion-reduce:animate-none')}>
      <button
        type="button"
        onClick={open}
        className={cn(
          'flex w-full gap-3 border-b border-border px-4 py-3 text-left transition-colors hover:bg-muted/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
          !notification.isRead && 'bg-primary/5',
        )}
      >
        <Icon className={cn('mt-1 size-5 shrink-0', kind.colour, notification.type === 'like' && 'fill-current')} aria-hidden="true" />
        <span className="min-w-0 flex-1">
          <span className="flex items-center gap-2">
            {notification.type !== 'removed' &&
              !aboutYourself(notification.type) &&
              notification.actors.map((actor) => (
                <Avatar key={actor.id} name={actor.displayName} src={actor.profileImageUrl} size={32} />
              ))}
            {!notification.isRead && (
              <span className="ml-auto size-2.5 shrink-0 rounded-full bg-primary" aria-hidden="true" />
            )}
          </span>
          <span className="mt-1 block break-words">
            <Summary notification={notification} text={kind.text} />
            {!notification.isRead && <span className="sr-only"> (unread)</span>}
          </span>
          {notification.post && (
            <span className="mt-1 line-clamp-3 block text-sm text-muted-foreground">{notification.post.content}</span>
          )}
          <time dateTime={notification.createdAt} className="mt-1 block text-xs text-muted-foreground">
            {relativeTime(notification.createdAt)}
          </time>
        </span>
      </button>
    </li>
  )
}

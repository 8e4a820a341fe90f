import * as React from 'react'
import { useLocation } from 'wouter'
import { AtSign, Bell, Heart, MessageCircle, Repeat2, UserPlus } from 'lucide-react'
import { Avatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { cn, relativeTime } from '@/lib/utils'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Notification, NotificationType } from '@/lib/types'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useNotifications } from '@/features/notifications/api/get-notifications'
import { useUnreadCount } from '@/features/notifications/api/get-unread-count'
import { useMarkAllRead } from '@/features/notifications/api/mark-all-read'
import { useMarkRead } from '@/features/notifications/api/mark-read'
import { PageHeader } from './page-header'

const kinds: Record<NotificationType, { icon: typeof Heart; text: string; colour: string }> = {
  follow: { icon: UserPlus, text: 'followed you', colour: 'text-primary' },
  like: { icon: Heart, text: 'liked your post', colour: 'text-like' },
  reply: { icon: MessageCircle, text: 'replied to your post', colour: 'text-primary' },
  repost: { icon: Repeat2, text: 'reposted your post', colour: 'text-repost' },
  mention: { icon: AtSign, text: 'mentioned you', colour: 'text-primary' },
}

function NotificationItem({ notification }: { notification: Notification }) {
  const [, navigate] = useLocation()
  const markRead = useMarkRead()
  const kind = kinds[notification.type] ?? kinds.mention
  const Icon = kind.icon

  function open() {
    if (!notification.isRead) markRead.mutate(notification.id)
    navigate(notification.post ? `/post/${notification.post.id}` : `/profile/${notification.actor.username}`)
  }

  return (
    <li>
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
            <Avatar name={notification.actor.displayName} src={notification.actor.profileImageUrl} size={32} />
            {!notification.isRead && (
              <span className="ml-auto size-2.5 shrink-0 rounded-full bg-primary" aria-hidden="true" />
            )}
          </span>
          <span className="mt-1 block">
            <strong className="font-semibold">{notification.actor.displayName}</strong> {kind.text}
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

export default function NotificationsRoute() {
  const { data: me, isPending } = useCurrentUser()
  const notifications = useNotifications(Boolean(me))
  const unread = useUnreadCount(Boolean(me))
  const markAll = useMarkAllRead()
  const unreadCount = unread.data?.count ?? notifications.data?.filter((n) => !n.isRead).length ?? 0

  React.useEffect(() => {
    if (notifications.error) handleUnauthorized(notifications.error)
  }, [notifications.error])

  return (
    <>
      <PageHeader
        title={
          <>
            Notifications
            {unreadCount > 0 && (
              <span className="inline-flex min-w-6 items-center justify-center rounded-full bg-primary px-2 text-sm text-primary-foreground">
                {unreadCount}
                <span className="sr-only"> unread</span>
              </span>
            )}
          </>
        }
      >
        {me && unreadCount > 0 && (
          <Button variant="outline" size="sm" onClick={() => markAll.mutate()} disabled={markAll.isPending}>
            Mark all as read
          </Button>
        )}
      </PageHeader>
      {isPending ? null : !me ? (
        <p className="px-4 py-10 text-center text-muted-foreground">Please log in to see notifications.</p>
      ) : notifications.isPending ? (
        <p role="status" className="px-4 py-10 text-center text-muted-foreground">
          Loading...
        </p>
      ) : notifications.error ? (
        <p role="alert" className="px-4 py-10 text-center text-destructive">
          {notifications.error.message}
        </p>
      ) : notifications.data.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-4 py-16 text-center">
          <Bell className="size-10 text-muted-foreground" aria-hidden="true" />
          <p className="text-lg font-semibold">No notifications yet</p>
          <p className="text-muted-foreground">When people interact with your posts, you'll see it here</p>
        </div>
      ) : (
        <ul aria-label="Notifications">
          {notifications.data.map((notification) => (
            <NotificationItem key={notification.id} notification={notification} />
          ))}
        </ul>
      )}
    </>
  )
}

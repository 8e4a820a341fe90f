import * as React from 'react'
import { Bell } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useNotifications } from '@/features/notifications/api/get-notifications'
import { useUnreadCount } from '@/features/notifications/api/get-unread-count'
import { useMarkAllRead } from '@/features/notifications/api/mark-all-read'
import { NotificationList } from '@/features/notifications/components/notification-list'
import { PushSuggestion } from '@/features/push'
import { PageHeader } from './page-header'

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
        <>
          {/* After the first notification: the member has seen what they would be sent. */}
          <PushSuggestion />
          <NotificationList notifications={notifications.data} />
        </>
      )}
    </>
  )
}

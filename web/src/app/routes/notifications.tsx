import * as React from 'react'
import { AtSign, Bell } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { NotificationTab } from '@/lib/query-keys'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useNotifications } from '@/features/notifications/api/get-notifications'
import { useUnreadCount } from '@/features/notifications/api/get-unread-count'
import { useMarkAllRead } from '@/features/notifications/api/mark-all-read'
import { useMarkSeen } from '@/features/notifications/api/mark-seen'
import { NotificationList } from '@/features/notifications/components/notification-list'
import { PushSuggestion } from '@/features/push'
import { PageHeader } from './page-header'

const EMPTY: Record<NotificationTab, { icon: typeof Bell; title: string; text: string }> = {
  all: { icon: Bell, title: 'No notifications yet', text: "When people interact with your posts, you'll see it here" },
  mentions: { icon: AtSign, title: 'No mentions yet', text: 'When someone mentions you or replies to you, it shows here' },
}

/** One tab's notifications, loaded when the tab is first shown; what it shows is seen. */
function NotificationsTab({ tab }: { tab: NotificationTab }) {
  const notifications = useNotifications(true, tab)
  useSeen(notifications.data)

  React.useEffect(() => {
    if (notifications.error) handleUnauthorized(notifications.error)
  }, [notifications.error])

  if (notifications.isPending)
    return (
      <p role="status" className="px-4 py-10 text-center text-muted-foreground">
        Loading...
      </p>
    )
  if (notifications.error)
    return (
      <p role="alert" className="px-4 py-10 text-center text-destructive">
        {notifications.error.message}
      </p>
    )
  if (notifications.data.length === 0) {
    const { icon: Icon, title, text } = EMPTY[tab]
    return (
      <div className="flex flex-col items-center gap-2 px-4 py-16 text-center">
        <Icon className="size-10 text-muted-foreground" aria-hidden="true" />
        <p className="text-lg font-semibold">{title}</p>
        <p className="text-muted-foreground">{text}</p>
      </div>
    )
  }
  return (
    <>
      {/* After the first notification: the member has seen what they would be sent. */}
      {tab === 'all' && <PushSuggestion />}
      <NotificationList notifications={notifications.data} />
    </>
  )
}

/**
 * Marks the notifications shown as seen, up to the newest (again when newer ones arrive while the
 * screen is open): the badge and the tab's title clear; each item's highlight stays until the
 * next visit, so the member still sees which are new.
 */
function useSeen(shown: readonly { id: number }[] | undefined) {
  const { mutate } = useMarkSeen()
  const newest = shown?.reduce((max, n) => Math.max(max, n.id), 0) ?? 0
  const marked = React.useRef(0)
  React.useEffect(() => {
    if (newest <= marked.current) return
    marked.current = newest
    mutate(newest)
  }, [newest, mutate])
}

export default function NotificationsRoute() {
  const { data: me, isPending } = useCurrentUser()
  const unread = useUnreadCount(Boolean(me))
  const markAll = useMarkAllRead()
  const unreadCount = unread.data?.count ?? 0

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
      ) : (
        <Tabs defaultValue="all">
          <div className="border-b border-border px-4 py-2">
            <TabsList aria-label="Notifications shown">
              <TabsTrigger value="all">All</TabsTrigger>
              <TabsTrigger value="mentions">Mentions</TabsTrigger>
            </TabsList>
          </div>
          <TabsContent value="all" className="mt-0">
            <NotificationsTab tab="all" />
          </TabsContent>
          <TabsContent value="mentions" className="mt-0">
            <NotificationsTab tab="mentions" />
          </TabsContent>
        </Tabs>
      )}
    </>
  )
}

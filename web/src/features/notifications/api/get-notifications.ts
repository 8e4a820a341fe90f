import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Notification } from '@/lib/types'
import { notificationKeys, type NotificationTab } from '@/lib/query-keys'

export const NOTIFICATION_LIMIT = 50

/** What each tab lists: "Mentions" has the notifications that quote what someone wrote to the member. */
const TAB_TYPES: Record<NotificationTab, string> = { all: '', mentions: '&types=mention,reply' }

/** The first page of a tab, likes and reposts of one post grouped into one item. */
export const getNotifications = (tab: NotificationTab = 'all') =>
  api.get<Notification[]>(`/api/notifications?grouped=true&limit=${NOTIFICATION_LIMIT}${TAB_TYPES[tab]}`)

export const notificationsQueryOptions = (tab: NotificationTab = 'all') =>
  queryOptions({ queryKey: notificationKeys.list(tab), queryFn: () => getNotifications(tab) })

export function useNotifications(enabled = true, tab: NotificationTab = 'all') {
  return useQuery({ ...notificationsQueryOptions(tab), enabled })
}

import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Notification } from '@/lib/types'
import { notificationKeys } from '@/lib/query-keys'

export const NOTIFICATION_LIMIT = 50

export const getNotifications = () => api.get<Notification[]>(`/api/notifications?limit=${NOTIFICATION_LIMIT}`)

export const notificationsQueryOptions = () =>
  queryOptions({ queryKey: notificationKeys.list(), queryFn: getNotifications })

export function useNotifications(enabled = true) {
  return useQuery({ ...notificationsQueryOptions(), enabled })
}

import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { notificationKeys } from '@/lib/query-keys'

export const getUnreadCount = () => api.get<{ count: number }>('/api/notifications/unread-count')

export const unreadCountQueryOptions = () =>
  queryOptions({ queryKey: notificationKeys.unreadCount(), queryFn: getUnreadCount })

export function useUnreadCount(enabled = true) {
  return useQuery({ ...unreadCountQueryOptions(), enabled })
}

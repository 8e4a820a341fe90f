import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { notificationKeys } from '@/lib/query-keys'

/**
 * The member saw their notifications up to `lastSeenId` (the newest the screen shows): the server
 * reads them and sets the notifications marker their apps read, as an app setting it does.
 */
export const markSeen = (lastSeenId: number) => api.put<void>('/api/notifications/seen', { lastSeenId })

/**
 * Opening Notifications marks what it shows as seen: the badge and the tab's title clear at once,
 * while the items keep their unread highlight until the list is next loaded (the next visit).
 */
export function useMarkSeen() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: markSeen,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount() })
      // Stale, not refetched: the screen keeps its highlights until it is opened again.
      void queryClient.invalidateQueries({ queryKey: [...notificationKeys.all, 'list'], refetchType: 'none' })
    },
    onError: (error) => {
      handleUnauthorized(error)
    },
  })
}

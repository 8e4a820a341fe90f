import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Notification } from '@/lib/types'
import { notificationKeys } from '@/lib/query-keys'

/** Marks a notification read, and the server reads the rest of its group with it. */
export const markRead = (notification: Pick<Notification, 'id' | 'groupKey'>) =>
  api.put<void>(`/api/notifications/${notification.id}/read`)

export function useMarkRead() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: markRead,
    onMutate: ({ groupKey }) => {
      queryClient.setQueriesData<Notification[]>({ queryKey: [...notificationKeys.all, 'list'] }, (list) =>
        list?.map((n) => (n.groupKey === groupKey ? { ...n, isRead: true } : n)),
      )
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
    onError: (error) => {
      handleUnauthorized(error)
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Notification } from '@/lib/types'
import { notificationKeys } from '@/lib/query-keys'

export const markRead = (id: number) => api.put<void>(`/api/notifications/${id}/read`)

export function useMarkRead() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: markRead,
    onMutate: (id) => {
      queryClient.setQueryData<Notification[]>(notificationKeys.list(), (list) =>
        list?.map((n) => (n.id === id ? { ...n, isRead: true } : n)),
      )
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
    onError: (error) => {
      handleUnauthorized(error)
    },
  })
}

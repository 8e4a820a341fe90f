import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { toast } from '@/components/ui/use-toast'
import { notificationKeys } from '@/lib/query-keys'

export const markAllRead = () => api.put<void>('/api/notifications/read-all')

export function useMarkAllRead() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: markAllRead,
    onSuccess: () => {
      toast({ title: 'All notifications marked as read' })
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all })
    },
    onError: (error) => {
      if (!handleUnauthorized(error))
        toast({ title: 'Error', description: 'Failed to mark notifications as read.', variant: 'destructive' })
    },
  })
}

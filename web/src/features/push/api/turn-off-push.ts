import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { pushKeys } from '@/lib/query-keys'
import { toastFailure } from '@/lib/toast-failure'
import { unsubscribeBrowser } from '../lib/browser-push'

export const endPushSubscription = () => api.delete('/api/push/subscriptions')

/** Turns off pushes to this device: the server stops first, then the browser lets its subscription go. */
export function useTurnOffPush() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      await endPushSubscription()
      queryClient.setQueryData(pushKeys.subscription(), null)
      // The server sends nothing more either way; a browser that fails here only keeps an unused subscription.
      await unsubscribeBrowser().catch(() => undefined)
    },
    onError: (error) => toastFailure(error, 'Notifications could not be turned off for this device. Please try again.'),
  })
}

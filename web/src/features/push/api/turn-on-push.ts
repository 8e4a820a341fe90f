import { useMutation, useQueryClient } from '@tanstack/react-query'
import { pushKeys } from '@/lib/query-keys'
import { toast } from '@/components/ui/use-toast'
import { handleUnauthorized } from '@/lib/unauthorized'
import { askPermission, subscribeBrowser } from '../lib/browser-push'
import { EVERYTHING } from '../lib/choices'
import { pushFailure } from '../lib/push-failure'
import { pushKeyQueryOptions } from './get-push-key'
import { savePushSubscription } from './save-push-subscription'

/** How turning on ended: on, or the member's answer to the browser's question. */
export type TurnOnOutcome = 'on' | 'denied' | 'dismissed'

/**
 * Turns on pushes to this device: asks the browser's permission (the one place that does, always
 * from a click), registers the service worker, subscribes with the instance's key and sends the
 * subscription to the server, pushing everything until the member chooses less.
 */
export function useTurnOnPush() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (): Promise<TurnOnOutcome> => {
      const permission = await askPermission()
      if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'dismissed'
      const { publicKey } = await queryClient.fetchQuery(pushKeyQueryOptions())
      const saved = await savePushSubscription({ ...(await subscribeBrowser(publicKey)), ...EVERYTHING })
      queryClient.setQueryData(pushKeys.subscription(), saved)
      return 'on'
    },
    onError: (error) => {
      if (!handleUnauthorized(error))
        toast({ title: 'Notifications could not be turned on', description: pushFailure(error), variant: 'destructive' })
    },
  })
}

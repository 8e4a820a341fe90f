import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { pushKeys } from '@/lib/query-keys'
import { toastFailure } from '@/lib/toast-failure'
import type { NewPushSubscription, SavedPushSubscription } from '@/lib/types'
import { subscribeBrowser } from '../lib/browser-push'
import type { PushChoices } from '../lib/choices'

/** Subscribes this session (or replaces its subscription) with the browser's subscription and what to push. */
export const savePushSubscription = (body: NewPushSubscription) =>
  api.post<SavedPushSubscription>('/api/push/subscriptions', body)

/**
 * Saves a change of what is pushed: the same subscription posted again with the new choices.
 * The switches move at once; saves run one after another (mutation scope), each with every
 * choice, so the last one wins; a failed save says so and shows what the server kept.
 */
export function useSavePushChoices() {
  const queryClient = useQueryClient()
  const key = pushKeys.subscription()
  const isLast = () => queryClient.isMutating({ mutationKey: pushKeys.saveChoices() }) <= 1
  return useMutation({
    mutationKey: pushKeys.saveChoices(),
    scope: { id: 'push-choices' },
    mutationFn: async ({ choices, serverKey }: { choices: PushChoices; serverKey: string }) =>
      savePushSubscription({ ...(await subscribeBrowser(serverKey)), ...choices }),
    onMutate: ({ choices }) => {
      queryClient.setQueryData<SavedPushSubscription | null>(key, (saved) => saved && { ...saved, ...choices })
    },
    onSuccess: (saved) => {
      if (isLast()) queryClient.setQueryData(key, saved)
    },
    onError: (error) => {
      toastFailure(error, 'Your notification choice was not saved. Please try again.')
      void queryClient.invalidateQueries({ queryKey: key })
    },
  })
}

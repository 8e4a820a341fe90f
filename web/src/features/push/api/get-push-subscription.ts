import { queryOptions, useQuery } from '@tanstack/react-query'
import { ApiError, api } from '@/lib/api-client'
import { pushKeys } from '@/lib/query-keys'
import type { SavedPushSubscription } from '@/lib/types'
import { browserIsSubscribed, pushSupported } from '../lib/browser-push'

/** This session's subscription, null when it has none (the server answers 404). */
export async function getPushSubscription(): Promise<SavedPushSubscription | null> {
  try {
    return await api.get<SavedPushSubscription>('/api/push/subscriptions')
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null
    throw error
  }
}

/**
 * Pushes to this device: the session's subscription, asked only when this browser holds one
 * (without it nothing could reach the device, and the server would only answer 404).
 */
export const devicePushQueryOptions = () =>
  queryOptions({
    queryKey: pushKeys.subscription(),
    queryFn: async () => (pushSupported() && (await browserIsSubscribed()) ? getPushSubscription() : null),
  })

export function useDevicePush() {
  return useQuery(devicePushQueryOptions())
}

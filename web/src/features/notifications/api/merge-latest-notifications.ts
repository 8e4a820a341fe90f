import type { QueryClient } from '@tanstack/react-query'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Notification } from '@/lib/types'
import { notificationKeys } from '@/lib/query-keys'
import { mergeNotifications } from '../lib/merge-notifications'
import { getNotifications } from './get-notifications'

/**
 * A new notification was written: a list on screen gets the first page's new ones on top (the
 * reader's place is kept by the list); a list no screen shows is only marked stale, and loads
 * afresh when shown again.
 */
export async function mergeLatestNotifications(queryClient: QueryClient) {
  const queryKey = notificationKeys.list()
  const query = queryClient.getQueryCache().find({ queryKey, exact: true })
  if (!query) return
  if (query.getObserversCount() === 0) {
    await queryClient.invalidateQueries({ queryKey, exact: true })
    return
  }
  try {
    const page = await getNotifications()
    queryClient.setQueryData<Notification[]>(queryKey, (shown) => mergeNotifications(shown, page))
  } catch (error) {
    // Any other failure leaves the list as it is, until the next notification or a reload.
    handleUnauthorized(error)
  }
}

import type { QueryClient } from '@tanstack/react-query'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Notification } from '@/lib/types'
import { notificationKeys, type NotificationTab } from '@/lib/query-keys'
import { mergeNotifications } from '../lib/merge-notifications'
import { getNotifications } from './get-notifications'

const TABS: NotificationTab[] = ['all', 'mentions']

/**
 * A new notification was written: a tab on screen gets the first page's new items on top (the
 * reader's place is kept by the list); a tab no screen shows is only marked stale, and loads
 * afresh when shown again.
 */
export async function mergeLatestNotifications(queryClient: QueryClient) {
  await Promise.all(TABS.map((tab) => mergeTab(queryClient, tab)))
}

async function mergeTab(queryClient: QueryClient, tab: NotificationTab) {
  const queryKey = notificationKeys.list(tab)
  const query = queryClient.getQueryCache().find({ queryKey, exact: true })
  if (!query) return
  if (query.getObserversCount() === 0) {
    await queryClient.invalidateQueries({ queryKey, exact: true })
    return
  }
  try {
    const page = await getNotifications(tab)
    queryClient.setQueryData<Notification[]>(queryKey, (shown) => mergeNotifications(shown, page))
  } catch (error) {
    // Any other failure leaves the list as it is, until the next notification or a reload.
    handleUnauthorized(error)
  }
}

import type { Notification } from '@/lib/types'

/**
 * The list after a fresh first page: notifications not shown yet go on top (in the page's order),
 * the ones shown stay where they are with the page's newer copy (read elsewhere, say); none twice.
 */
export function mergeNotifications(shown: readonly Notification[] | undefined, page: readonly Notification[]): Notification[] {
  if (!shown) return [...new Map(page.map((n) => [n.id, n])).values()]
  const fromPage = new Map(page.map((n) => [n.id, n]))
  const shownIds = new Set(shown.map((n) => n.id))
  const arrived = [...fromPage.values()].filter((n) => !shownIds.has(n.id))
  return [...arrived, ...shown.map((n) => fromPage.get(n.id) ?? n)]
}

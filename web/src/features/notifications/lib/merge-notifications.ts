import type { Notification } from '@/lib/types'

/**
 * The list after a fresh first page, item by group: groups not shown yet, and groups that grew
 * (a newer notification heads them), go on top in the page's order; the others stay where they
 * are with the page's newer copy (read elsewhere, say); no group twice.
 */
export function mergeNotifications(shown: readonly Notification[] | undefined, page: readonly Notification[]): Notification[] {
  const fromPage = new Map(page.map((n) => [n.groupKey, n]))
  if (!shown) return [...fromPage.values()]
  const shownHeads = new Map(shown.map((n) => [n.groupKey, n.id]))
  const arrived = [...fromPage.values()].filter((n) => shownHeads.get(n.groupKey) !== n.id)
  const moved = new Set(arrived.map((n) => n.groupKey))
  return [...arrived, ...shown.filter((n) => !moved.has(n.groupKey)).map((n) => fromPage.get(n.groupKey) ?? n)]
}

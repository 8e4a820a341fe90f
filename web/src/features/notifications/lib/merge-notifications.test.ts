import { describe, expect, it } from 'vitest'
import type { Notification } from '@/lib/types'
import { mergeNotifications } from './merge-notifications'

const grace = { id: 2, username: 'grace', displayName: 'Grace Hopper', profileImageUrl: null }
const notification = (id: number, isRead = false, groupKey = `n-${id}`): Notification => ({
  id,
  groupKey,
  count: 1,
  actors: [grace],
  type: 'like',
  isRead,
  createdAt: '2026-11-20T10:00:00Z',
  actor: grace,
  post: { id: 5, content: 'Hello' },
})
const ids = (list: Notification[]) => list.map((n) => n.id)

describe('merging the first page into the notifications shown', () => {
  it('puts the new ones on top, in the order of the page', () => {
    const shown = [notification(3), notification(2), notification(1)]
    const page = [notification(5), notification(4), notification(3), notification(2)]
    expect(ids(mergeNotifications(shown, page))).toEqual([5, 4, 3, 2, 1])
  })

  it('never shows one twice, whatever the page holds', () => {
    const shown = [notification(3), notification(2)]
    const page = [notification(4), notification(4), notification(3), notification(3)]
    expect(ids(mergeNotifications(shown, page))).toEqual([4, 3, 2])
    expect(ids(mergeNotifications(undefined, page))).toEqual([4, 3])
  })

  it('keeps the ones shown where they are, in their newer state', () => {
    const shown = [notification(3), notification(2), notification(1)]
    const merged = mergeNotifications(shown, [notification(3, true)])
    expect(ids(merged)).toEqual([3, 2, 1])
    expect(merged[0]?.isRead).toBe(true)
    expect(merged[1]).toBe(shown[1])
  })

  it('keeps older ones the page no longer holds', () => {
    const shown = Array.from({ length: 50 }, (_, i) => notification(50 - i))
    const page = Array.from({ length: 50 }, (_, i) => notification(51 - i))
    const merged = mergeNotifications(shown, page)
    expect(merged).toHaveLength(51)
    expect(ids(merged).slice(0, 2)).toEqual([51, 50])
    expect(merged.at(-1)?.id).toBe(1)
  })

  it('moves a group that grew to the top, once', () => {
    const shown = [notification(3), notification(2, false, 'like-5'), notification(1)]
    const merged = mergeNotifications(shown, [notification(4, false, 'like-5'), notification(3)])
    expect(ids(merged)).toEqual([4, 3, 1])
    expect(merged.filter((n) => n.groupKey === 'like-5')).toHaveLength(1)
  })
})

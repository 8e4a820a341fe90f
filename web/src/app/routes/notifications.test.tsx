import { cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Notification } from '@/lib/types'
import { notificationKeys } from '@/lib/query-keys'
import { aUser, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import NotificationsRoute from './notifications'

afterEach(() => {
  vi.unstubAllGlobals()
  cleanup()
})

const grace = { id: 2, username: 'grace', displayName: 'Grace Hopper', profileImageUrl: null }
const follow = (id: number, isRead = false): Notification => ({
  id,
  groupKey: `n-${id}`,
  count: 1,
  actors: [grace],
  type: 'follow',
  isRead,
  createdAt: '2026-11-20T10:00:00Z',
  actor: grace,
})

/** Ada opens Notifications with two unread and one read; the server counts what is unread. */
function openNotifications() {
  let unread = 2
  const fetch = mockFetch((url, init) => {
    if (url === '/api/auth/me') return json(aUser)
    if (url === '/api/notifications/unread-count') return json({ count: unread })
    if (url === '/api/notifications/seen' && init.method === 'PUT') {
      unread = 0
      return new Response(null, { status: 204 })
    }
    if (url.startsWith('/api/notifications?')) return json([follow(9), follow(7), follow(3, true)])
    return json([])
  })
  return { fetch, ...renderWithProviders(<NotificationsRoute />) }
}

describe('opening Notifications', () => {
  it('marks what it shows as seen, up to the newest, and the count clears', async () => {
    const { fetch } = openNotifications()
    await waitFor(() => expect(requestsOf(fetch).map(({ call }) => call)).toContain('PUT /api/notifications/seen'))
    expect(requestsOf(fetch).find(({ call }) => call === 'PUT /api/notifications/seen')?.body).toEqual({ lastSeenId: 9 })
    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument()
  })

  it('keeps the items it showed unread-highlighted until the next visit', async () => {
    const { fetch, queryClient } = openNotifications()
    await waitFor(() => expect(requestsOf(fetch).map(({ call }) => call)).toContain('PUT /api/notifications/seen'))
    await waitFor(() => expect(queryClient.getQueryState(notificationKeys.list('all'))?.isInvalidated).toBe(true))
    expect(screen.getAllByText('(unread)', { exact: false })).toHaveLength(2)
    expect(requestsOf(fetch).filter(({ call }) => call.startsWith('GET /api/notifications?'))).toHaveLength(1)
  })
})

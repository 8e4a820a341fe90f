import { act, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { authKeys, notificationKeys } from '@/lib/query-keys'
import { FakeEventSource } from '@/test/fake-event-source'
import { aUser, json, mockFetch, renderWithProviders } from '@/test/test-utils'
import { LiveProvider } from '@/features/live'
import { MemberLayout } from './member-layout'

function openLayout(unread: number, me: Partial<typeof aUser> & { firstRunDone?: boolean } = {}) {
  mockFetch((url) => {
    if (url === '/api/auth/me') return json(aUser)
    if (url === '/api/notifications/unread-count') return json({ count: unread })
    return json([])
  })
  const queryClient = createQueryClient()
  queryClient.setQueryData(authKeys.me(), { ...aUser, role: 'member', ...me })
  return renderWithProviders(
    <LiveProvider>
      <MemberLayout>
        <p>Home</p>
      </MemberLayout>
    </LiveProvider>,
    queryClient,
  )
}

/** The link's words with the badge: "Notifications", then "3 unread" (the number drawn, "unread" for screen readers). */
const badged = (count: number) => new RegExp(`^Notifications\\s?${count} unread$`)

/** The Notifications link of the sidebar. */
const notificationsLink = () => within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: /^Notifications/ })

beforeEach(() => {
  FakeEventSource.reset()
  vi.stubGlobal('EventSource', FakeEventSource)
  document.title = 'Murmur'
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the unread badge and the tab title', () => {
  it('show the unread count the page loaded with', async () => {
    openLayout(2)
    await vi.waitFor(() => expect(notificationsLink()).toHaveTextContent(badged(2)))
    expect(document.title).toBe('(2) Murmur')
  })

  it('follow the unread count the stream sends, without a reload', async () => {
    const { queryClient } = openLayout(0)
    await vi.waitFor(() => expect(queryClient.getQueryData(notificationKeys.unreadCount())).toEqual({ count: 0 }))
    expect(notificationsLink()).toHaveTextContent(/^Notifications$/)
    expect(document.title).toBe('Murmur')

    act(() => FakeEventSource.latest.emit('unread-count', { count: 3 }, '1'))
    await vi.waitFor(() => expect(notificationsLink()).toHaveTextContent(badged(3)))
    expect(document.title).toBe('(3) Murmur')

    act(() => FakeEventSource.latest.emit('unread-count', { count: 0 }, '2'))
    await vi.waitFor(() => expect(notificationsLink()).toHaveTextContent(/^Notifications$/))
    expect(document.title).toBe('Murmur')
  })

  it('leave the title plain when the member screens go (logout)', async () => {
    const { unmount } = openLayout(4)
    await vi.waitFor(() => expect(document.title).toBe('(4) Murmur'))
    unmount()
    expect(document.title).toBe('Murmur')
  })
})

describe('the floating New Post button', () => {
  it('floats on the member screens', () => {
    openLayout(0, { firstRunDone: true })
    expect(screen.getAllByRole('button', { name: 'New Post' })).toHaveLength(2)
  })

  it("is not over the Welcome card, a new member's whole screen (its Continue is where the button floats)", () => {
    openLayout(0, { firstRunDone: false })
    // The sidebar's, for wide screens, only.
    expect(screen.getAllByRole('button', { name: 'New Post' })).toHaveLength(1)
  })
})

import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Notification } from '@/lib/types'
import { json, mockFetch, renderWithProviders } from '@/test/test-utils'
import { NotificationItem } from './notification-item'

afterEach(() => {
  vi.unstubAllGlobals()
})

const removal: Notification = {
  id: 1,
  groupKey: 'n-1',
  count: 1,
  actors: [{ id: 9, username: 'mia', displayName: 'Mia Moderator', profileImageUrl: null }],
  type: 'removed',
  isRead: false,
  createdAt: new Date().toISOString(),
  actor: { id: 9, username: 'mia', displayName: 'Mia Moderator', profileImageUrl: null },
  post: { id: 12, content: 'Cheap followers' },
  reason: 'Spam links',
}

describe('a notification', () => {
  it('tells the author moderators removed their post, and why, without naming the moderator', () => {
    mockFetch(() => json({}))
    renderWithProviders(
      <ul>
        <NotificationItem notification={removal} />
      </ul>,
    )
    const item = screen.getByRole('button', { name: /^Moderators removed your post: Spam links/ })
    expect(item).toHaveTextContent('Cheap followers')
    expect(item).not.toHaveTextContent('Mia')
  })

  it('still names the member for the other kinds', () => {
    mockFetch(() => json({}))
    renderWithProviders(
      <ul>
        <NotificationItem notification={{ ...removal, type: 'like', reason: null }} />
      </ul>,
    )
    expect(screen.getByRole('button', { name: /^Mia Moderator liked your post/ })).toBeInTheDocument()
  })

  it('names a group by its newest members and how many others, with their pictures', () => {
    mockFetch(() => json({}))
    const member = (id: number, displayName: string) => ({ id, username: `m${id}`, displayName, profileImageUrl: null })
    const [ada, bob, cyd] = [member(1, 'Ada'), member(2, 'Bob'), member(3, 'Cyd')]
    const like = { ...removal, type: 'like' as const, reason: null, groupKey: 'like-12', actor: ada }
    renderWithProviders(
      <ul>
        <NotificationItem notification={{ ...like, count: 2, actors: [ada, bob] }} />
        <NotificationItem notification={{ ...like, id: 2, count: 5, actors: [ada, bob, cyd] }} />
      </ul>,
    )
    expect(screen.getByRole('button', { name: /^Ada and Bob liked your post/ })).toBeInTheDocument()
    const five = screen.getByRole('button', { name: /^Ada and 4 others liked your post/ })
    const pictures = [...five.querySelectorAll('span[aria-hidden="true"]')].map((e) => e.textContent).filter(Boolean)
    expect(pictures).toEqual(['A', 'B', 'C'])
  })

  it('tells the member their data archive is ready, naming no one, and opens the settings', async () => {
    mockFetch(() => new Response(null, { status: 204 }))
    const ada = { id: 1, username: 'ada', displayName: 'Ada Lovelace', profileImageUrl: null }
    const location = memoryLocation({ path: '/notifications' })
    renderWithProviders(
      <Router hook={location.hook}>
        <ul>
          <NotificationItem notification={{ ...removal, type: 'export-ready', actor: ada, post: null, reason: null }} />
        </ul>
        <Route path="/settings">Settings page</Route>
      </Router>,
    )
    const item = screen.getByRole('button', { name: /^Your data archive is ready to download/ })
    expect(item).not.toHaveTextContent('Ada')
    await userEvent.click(item)
    expect(await screen.findByText('Settings page')).toBeInTheDocument()
  })
})

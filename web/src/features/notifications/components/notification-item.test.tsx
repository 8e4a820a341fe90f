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

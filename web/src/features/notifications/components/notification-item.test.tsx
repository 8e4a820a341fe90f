import { screen } from '@testing-library/react'
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
})

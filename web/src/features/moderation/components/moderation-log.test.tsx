import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LogEntry } from '@/lib/types'
import { dateTime } from '@/lib/utils'
import { json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { ModerationLog } from './moderation-log'

afterEach(() => {
  vi.unstubAllGlobals()
})

const entry = (extra: Partial<LogEntry>): LogEntry => ({
  id: 1,
  createdAt: '2026-11-20T09:30:00Z',
  action: 'dismiss',
  reason: 'Not spam',
  moderatorRole: 'moderator',
  moderator: { username: 'mia', displayName: 'Mia' },
  member: { username: 'carol', displayName: 'Carol' },
  postId: null,
  until: null,
  ...extra,
})

describe('the moderation log', () => {
  it('shows date, action, target, reason and moderator of each action', async () => {
    const fetch = mockFetch(() =>
      json([
        entry({ id: 3, action: 'suspend', until: '2026-11-27T09:30:00Z', reason: 'Harassment' }),
        entry({ id: 2, action: 'remove_post', postId: 12, reason: 'Spam links' }),
        entry({ id: 1, action: 'suspend', until: null, moderator: null, reason: 'Ban evasion' }),
      ]),
    )
    renderWithProviders(<ModerationLog />)
    const log = await screen.findByRole('list', { name: 'Moderation log' })
    const [suspension, removal, indefinite] = within(log).getAllByRole('listitem')
    expect(suspension).toHaveTextContent(`Suspended until ${dateTime('2026-11-27T09:30:00Z')} · @carol`)
    expect(suspension).toHaveTextContent('Reason: Harassment')
    expect(suspension).toHaveTextContent(`By @mia · ${dateTime('2026-11-20T09:30:00Z')}`)
    expect(removal).toHaveTextContent("Removed a post · @carol's post 12")
    expect(within(removal).getByRole('link', { name: '@carol' })).toHaveAttribute('href', '/profile/carol')
    expect(indefinite).toHaveTextContent('Suspended until lifted')
    expect(indefinite).toHaveTextContent('By a moderator')
    expect(requestsOf(fetch)[0]?.call).toBe('GET /api/moderation/log?limit=20&offset=0')
  })

  it('names the role, not the person, when the server names no moderator', async () => {
    mockFetch(() =>
      json([
        entry({ id: 2, moderator: null, moderatorRole: 'admin' }),
        entry({ id: 1, moderator: null, moderatorRole: 'moderator' }),
      ]),
    )
    renderWithProviders(<ModerationLog />)
    const log = await screen.findByRole('list', { name: 'Moderation log' })
    const [byAdmin, byModerator] = within(log).getAllByRole('listitem')
    expect(byAdmin).toHaveTextContent('By an admin ·')
    expect(byModerator).toHaveTextContent('By a moderator ·')
    expect(log).not.toHaveTextContent('@mia')
  })

  it('says when moderators have done nothing yet', async () => {
    mockFetch(() => json([]))
    renderWithProviders(<ModerationLog />)
    expect(await screen.findByText('No moderation actions yet.')).toBeInTheDocument()
  })
})

import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import type { Role } from '@/lib/types'
import { authKeys } from '@/lib/query-keys'
import { aUser, json, mockFetch, renderWithProviders } from '@/test/test-utils'
import MemberRoutes from './member-routes'

afterEach(() => {
  vi.unstubAllGlobals()
  cleanup()
  window.history.replaceState(null, '', '/')
})

function openAs(role: Role, path: string) {
  mockFetch((url) => {
    if (url === '/api/auth/me') return json(aUser)
    if (url === '/api/notifications/unread-count') return json({ count: 0 })
    return json([])
  })
  const queryClient = createQueryClient()
  queryClient.setQueryData(authKeys.me(), { ...aUser, role })
  window.history.replaceState(null, '', path)
  renderWithProviders(<MemberRoutes />, queryClient)
}

describe('the moderation screens', () => {
  it('are a page that does not exist for a member, with no Moderation link', async () => {
    openAs('member', '/moderation')
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument()
    const nav = screen.getByRole('navigation', { name: 'Main' })
    expect(within(nav).queryByRole('link', { name: 'Moderation' })).not.toBeInTheDocument()
  })

  it("hide a member's invite tree from members too", async () => {
    openAs('member', '/moderation/members/3')
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument()
  })

  it('show moderators the reports queue, linked in the navigation', async () => {
    openAs('moderator', '/moderation')
    expect(await screen.findByRole('heading', { name: 'Moderation' })).toBeInTheDocument()
    expect(await screen.findByText('No open reports')).toBeInTheDocument()
    const nav = screen.getByRole('navigation', { name: 'Main' })
    expect(within(nav).getByRole('link', { name: 'Moderation' })).toHaveAttribute('aria-current', 'page')
  })

  it('show admins the queue as well', async () => {
    openAs('admin', '/moderation')
    expect(await screen.findByText('No open reports')).toBeInTheDocument()
  })

  it('let every member read the log', async () => {
    openAs('member', '/moderation/log')
    expect(await screen.findByRole('heading', { name: 'Moderation log' })).toBeInTheDocument()
    expect(await screen.findByText('No moderation actions yet.')).toBeInTheDocument()
  })
})

describe('the settings page', () => {
  it('lists blocked and muted members', async () => {
    openAs('member', '/settings')
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument()
    expect(await screen.findByText("You haven't blocked anyone.")).toBeInTheDocument()
    expect(await screen.findByText("You haven't muted anyone.")).toBeInTheDocument()
  })
})

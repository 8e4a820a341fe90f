import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { authKeys } from '@/lib/query-keys'
import { aUser, json, mockFetch, renderWithProviders } from '@/test/test-utils'
import UserMenu from './user-menu'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the user menu', () => {
  it('links Settings and the moderation log, before Log out', async () => {
    mockFetch(() => json(aUser))
    const queryClient = createQueryClient()
    queryClient.setQueryData(authKeys.me(), aUser)
    renderWithProviders(<UserMenu trigger={<button type="button">User menu</button>} defaultOpen />, queryClient)
    const items = await screen.findAllByRole('menuitem')
    expect(items.map((item) => item.textContent?.trim())).toEqual(['Settings', 'Moderation log', 'Log out'])
    expect(screen.getByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/settings')
    expect(screen.getByRole('menuitem', { name: 'Moderation log' })).toHaveAttribute('href', '/moderation/log')
  })
})

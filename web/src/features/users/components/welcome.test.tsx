import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aProfile, aUser, json, mockFetch, renderWithProviders } from '@/test/test-utils'
import { Welcome } from './welcome'

afterEach(() => {
  vi.unstubAllGlobals()
})

const grace = { ...aProfile(), id: 2, username: 'grace', displayName: 'Grace Hopper' }
const linus = { ...aProfile(), id: 3, username: 'linus', displayName: 'Linus Torvalds' }

function showWelcome(followingCount: number) {
  const fetch = mockFetch((url) => {
    if (url === '/api/users/starter-pack') return json({ inviter: grace, members: [linus] })
    if (url.startsWith('/api/users/suggested')) return json([])
    if (url.startsWith('/api/follows/')) return json({ isFollowing: false })
    return json([])
  })
  renderWithProviders(<Welcome me={{ ...aUser, followingCount }} />)
  return fetch
}

describe("Home's welcome", () => {
  it('names the inviter and offers to follow the people they follow, beside who to follow', async () => {
    showWelcome(1)
    const pack = await screen.findByRole('region', { name: 'People your inviter follows' })
    expect(within(pack).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute('href', '/profile/grace')
    expect(await within(pack).findByRole('button', { name: 'Follow Linus Torvalds' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Who to follow' })).toBeInTheDocument()
  })

  it('does not count the inviter among the people followed', async () => {
    showWelcome(3)
    expect(await screen.findByRole('region', { name: 'People your inviter follows' })).toBeInTheDocument()
  })

  it('is gone, without asking, once the member follows three people besides their inviter', () => {
    const fetch = showWelcome(4)
    expect(screen.queryByRole('region', { name: 'People your inviter follows' })).not.toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Who to follow' })).not.toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
  })
})

import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PAGE_SIZE, type ListedUser } from '@/lib/types'
import { aUser, json, mockFetch, renderWithProviders } from '@/test/test-utils'
import { FollowList } from './follow-list'

afterEach(() => {
  vi.unstubAllGlobals()
})

const member = (id: number): ListedUser => ({
  ...aUser,
  id,
  username: `member${id}`,
  displayName: `Member ${id}`,
  isFollowing: false,
})

describe("a profile's followers", () => {
  it('lists them with Follow buttons and shows more a page at a time', async () => {
    const asked: string[] = []
    mockFetch((url) => {
      if (url.startsWith('/api/users/grace/followers')) {
        asked.push(url)
        const offset = Number(new URL(url, 'http://x').searchParams.get('offset'))
        const ids = offset === 0 ? Array.from({ length: PAGE_SIZE }, (_, i) => 100 + i) : [500]
        return json(ids.map(member))
      }
      if (url.startsWith('/api/follows/')) return json({ isFollowing: false })
      return json([])
    })
    renderWithProviders(<FollowList username="grace" list="followers" me={aUser} />)
    expect(await screen.findByRole('link', { name: /Member 100/ })).toHaveAttribute('href', '/profile/member100')
    expect(await screen.findByRole('button', { name: 'Follow Member 100' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }))
    expect(await screen.findByRole('link', { name: /Member 500/ })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument()
    expect(asked).toEqual([
      `/api/users/grace/followers?limit=${PAGE_SIZE}&offset=0`,
      `/api/users/grace/followers?limit=${PAGE_SIZE}&offset=${PAGE_SIZE}`,
    ])
  })

  it('offers no Follow button beside the viewer themself', async () => {
    mockFetch((url) => (url.startsWith('/api/users/grace/following') ? json([{ ...aUser, isFollowing: false }]) : json([])))
    renderWithProviders(<FollowList username="grace" list="following" me={aUser} />)
    expect(await screen.findByRole('link', { name: /Ada Lovelace/ })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Follow/ })).not.toBeInTheDocument()
  })
})

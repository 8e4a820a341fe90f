import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aProfile, aUser, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { HomeAside } from './home'

afterEach(() => {
  vi.unstubAllGlobals()
})

/** A screen `width` pixels wide, as CSS media queries see it. */
function screenOf(width: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: Number(/min-width: (\d+)px/.exec(query)?.[1] ?? Infinity) <= width,
    addEventListener: () => {},
    removeEventListener: () => {},
  }))
}

function openAside() {
  const fetch = mockFetch((url) => {
    if (url === '/api/auth/me') return json(aUser)
    if (url.startsWith('/api/users/suggested')) return json([aProfile()])
    if (url.startsWith('/api/trending')) return json([{ name: 'RustLang', peopleCount: 3, postCount: 4 }])
    if (url.startsWith('/api/follows/')) return json({ isFollowing: false })
    return json([])
  })
  renderWithProviders(<HomeAside />)
  return fetch
}

describe("Home's right column", () => {
  it('shows Who to follow and Trending on a desktop screen', async () => {
    screenOf(1280)
    openAside()
    expect(await screen.findByRole('region', { name: 'Who to follow' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Trending' })).toBeInTheDocument()
    expect(await screen.findByRole('link', { name: '#RustLang 3 people posting' })).toBeInTheDocument()
  })

  it('asks for nothing on a narrower screen, where the column is hidden', async () => {
    screenOf(1024)
    const fetch = openAside()
    await vi.waitFor(() => expect(requestsOf(fetch).map(({ call }) => call)).toEqual(['GET /api/auth/me']))
    expect(screen.queryByRole('region', { name: 'Trending' })).not.toBeInTheDocument()
  })
})

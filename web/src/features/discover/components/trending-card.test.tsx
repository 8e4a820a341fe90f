import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { TrendingTag } from '@/lib/types'
import { json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { TrendingCard } from './trending-card'

afterEach(() => {
  vi.unstubAllGlobals()
})

const tags = (count: number): TrendingTag[] =>
  Array.from({ length: count }, (_, i) => ({ name: `Tag${i + 1}`, peopleCount: 30 - i, postCount: 60 - i }))

function renderTrending(answer: TrendingTag[] | Response) {
  const fetch = mockFetch(() => (answer instanceof Response ? answer.clone() : json(answer)))
  renderWithProviders(<TrendingCard />)
  return { fetch, card: screen.getByRole('region', { name: 'Trending' }) }
}

const tagLinks = (card: HTMLElement) => within(card).queryAllByRole('link')

describe('the Trending card', () => {
  it('asks for the top 20 once, and shows rows of the same height while it waits', async () => {
    const { fetch, card } = renderTrending(tags(6))
    expect(within(card).getByRole('status', { name: 'Loading trending tags' })).toBeInTheDocument()
    await within(card).findByRole('link', { name: '#Tag1 30 people posting' })
    expect(requestsOf(fetch).map(({ call }) => call)).toEqual(['GET /api/trending?limit=20'])
  })

  it('says nothing is trending with no tags', async () => {
    const { card } = renderTrending([])
    expect(await within(card).findByText('Nothing is trending yet.')).toBeInTheDocument()
    expect(tagLinks(card)).toHaveLength(0)
    expect(within(card).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument()
  })

  it.each([1, 2])('lists what trends when only %i tags do (a small community)', async (count) => {
    const { card } = renderTrending(tags(count))
    await within(card).findByRole('link', { name: '#Tag1 30 people posting' })
    expect(tagLinks(card)).toHaveLength(count)
    expect(within(card).queryByText('Nothing is trending yet.')).not.toBeInTheDocument()
  })

  it('lists 6 tags, each a link to its page, with no "Show more"', async () => {
    const { card } = renderTrending(tags(6))
    const first = await within(card).findByRole('link', { name: '#Tag1 30 people posting' })
    expect(first).toHaveAttribute('href', '/tag/Tag1')
    expect(tagLinks(card)).toHaveLength(6)
    expect(within(card).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument()
  })

  it('says "1 person posting" for one, and links a tag of any letters', async () => {
    const { card } = renderTrending([...tags(2), { name: 'café', peopleCount: 1, postCount: 1 }])
    const cafe = await within(card).findByRole('link', { name: '#café 1 person posting' })
    expect(cafe).toHaveAttribute('href', '/tag/caf%C3%A9')
  })

  it('shows the top 6 of 20, all 20 after "Show more", and 6 again after "Show less"', async () => {
    const { card } = renderTrending(tags(20))
    await within(card).findByRole('link', { name: '#Tag1 30 people posting' })
    expect(tagLinks(card)).toHaveLength(6)

    const more = within(card).getByRole('button', { name: 'Show more' })
    expect(more).toHaveAttribute('aria-expanded', 'false')
    await userEvent.click(more)
    expect(tagLinks(card)).toHaveLength(20)
    expect(within(card).getByRole('link', { name: '#Tag20 11 people posting' })).toBeInTheDocument()

    await userEvent.click(within(card).getByRole('button', { name: 'Show less' }))
    expect(tagLinks(card)).toHaveLength(6)
  })

  it('offers a retry when the tags could not be loaded', async () => {
    const { card } = renderTrending(json({ message: 'Internal server error' }, 500))
    expect(await within(card).findByText('Trending tags could not be loaded.')).toBeInTheDocument()
    expect(within(card).getByRole('button', { name: 'Retry' })).toBeInTheDocument()
  })
})

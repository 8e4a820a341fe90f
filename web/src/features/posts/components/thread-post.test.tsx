import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aPost, json, mockFetch, renderWithProviders } from '@/test/test-utils'
import { ThreadPost } from './thread-post'

afterEach(() => vi.unstubAllGlobals())

describe('a post in a thread', () => {
  it('holding a muted word is folded until shown, from the keyboard too', async () => {
    mockFetch(() => json({}))
    renderWithProviders(<ThreadPost post={aPost({ content: 'Spoilers ahead', hiddenByMutedWord: true })} />)
    expect(screen.getByText('Hidden by a muted word —')).toBeInTheDocument()
    expect(screen.queryByText('Spoilers ahead')).not.toBeInTheDocument()

    await userEvent.tab()
    expect(screen.getByRole('button', { name: 'show' })).toHaveFocus()
    await userEvent.keyboard('{Enter}')

    expect(await screen.findByText('Spoilers ahead')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'show' })).not.toBeInTheDocument()
    expect(document.activeElement).toHaveAttribute('data-unfolded')
  })

  it('holding none shows whole', () => {
    mockFetch(() => json({}))
    renderWithProviders(<ThreadPost post={aPost({ content: 'Tea' })} />)
    expect(screen.getByText('Tea')).toBeInTheDocument()
    expect(screen.queryByText('Hidden by a muted word —')).not.toBeInTheDocument()
  })
})

import type * as React from 'react'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { authKeys } from '@/lib/query-keys'
import type { Post } from '@/lib/types'
import { aPost, aUser, json, jsonBody, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { ComposeProvider } from './compose-provider'
import { Composer } from './composer'
import { ContentWarningSetting } from './content-warning-setting'
import { PostCard } from './post-card'

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

const warned = (overrides: Partial<Post> = {}) =>
  aPost({
    content: 'Snape kills Dumbledore',
    spoilerText: 'Book six spoilers',
    images: [{ url: '/objects/0123456789abcdef0123456789abcdef', alt: 'The tower', width: 600, height: 400 }],
    imageUrls: ['/objects/0123456789abcdef0123456789abcdef'],
    pollOptions: ['Saw it coming', 'Did not'],
    pollVotes: { 'Saw it coming': [], 'Did not': [] },
    pollExpiresAt: new Date(Date.now() + 3600_000).toISOString(),
    ...overrides,
  })

/** The card as a member with `expand` set sees it. */
function renderCard(post: Post, expand = false) {
  mockFetch(() => json([]))
  const queryClient = createQueryClient()
  queryClient.setQueryData(authKeys.me(), { ...aUser, expandContentWarnings: expand })
  renderWithProviders(
    <ComposeProvider>
      <PostCard post={post} currentUserId={1} />
    </ComposeProvider>,
    queryClient,
  )
  return queryClient
}

describe('a post card with a content warning', () => {
  it('shows the warning and keeps the text and poll hidden and the images blurred until shown', async () => {
    renderCard(warned())
    const card = screen.getByRole('article')
    expect(within(card).getByText('Book six spoilers')).toBeVisible()
    const show = within(card).getByRole('button', { name: 'Show post' })
    expect(show).toHaveAttribute('aria-expanded', 'false')
    const body = document.getElementById(show.getAttribute('aria-controls') ?? '')
    expect(body).not.toBeVisible()
    expect(within(card).queryByText('Snape kills Dumbledore')).not.toBeVisible()
    expect(within(card).queryByRole('button', { name: /Saw it coming/ })).not.toBeInTheDocument()
    // Blurred, not taken away: the images are there, drawn blurred, out of reach and unread.
    const images = card.querySelector('[data-blurred]')
    expect(images).toHaveAttribute('inert')
    expect(images).toHaveAttribute('aria-hidden', 'true')
    expect(images?.querySelector('img')).toHaveClass('blur-2xl')
    expect(within(card).queryByRole('img', { name: 'The tower' })).not.toBeInTheDocument()

    await userEvent.click(show)

    const hide = within(card).getByRole('button', { name: 'Hide post' })
    expect(hide).toHaveAttribute('aria-expanded', 'true')
    expect(within(card).getByText('Snape kills Dumbledore')).toBeVisible()
    expect(within(card).getByRole('img', { name: 'The tower' })).not.toHaveClass('blur-2xl')
    expect(card.querySelector('[data-blurred]')).toBeNull()
    expect(within(card).getByRole('button', { name: /Saw it coming/ })).toBeInTheDocument()
    await userEvent.click(hide)
    expect(within(card).getByRole('button', { name: 'Show post' })).toHaveAttribute('aria-expanded', 'false')
  })

  it('opens at once for a member who always expands them, and may still be hidden', async () => {
    renderCard(warned(), true)
    const card = screen.getByRole('article')
    expect(within(card).getByText('Book six spoilers')).toBeVisible()
    expect(within(card).getByText('Snape kills Dumbledore')).toBeVisible()
    expect(card.querySelector('[data-blurred]')).toBeNull()
    await userEvent.click(within(card).getByRole('button', { name: 'Hide post' }))
    expect(within(card).queryByText('Snape kills Dumbledore')).not.toBeVisible()
  })

  it('draws a post without a warning as before: no warning, nothing hidden', () => {
    renderCard(aPost({ content: 'Plain tea', spoilerText: null }))
    expect(screen.getByText('Plain tea')).toBeVisible()
    expect(screen.queryByRole('button', { name: /Show post|Hide post/ })).not.toBeInTheDocument()
  })

  it("shows a repost's original behind the original's warning", () => {
    const original = warned({ id: 20 })
    renderCard(aPost({ id: 21, repostOfId: 20, repostOf: original, spoilerText: null, content: '♻️' }))
    expect(screen.getByText('Book six spoilers')).toBeVisible()
    expect(screen.queryByText('Snape kills Dumbledore')).not.toBeVisible()
  })
})

describe('the composer and content warnings', () => {
  function setup(props: React.ComponentProps<typeof Composer> = {}) {
    const fetch = mockFetch((url, init) => {
      if (url === '/api/auth/me') return json(aUser)
      if (url === '/api/posts' && init.method === 'POST') return json(aPost(jsonBody(init) as Partial<Post>), 201)
      return json([])
    })
    renderWithProviders(<Composer {...props} />)
    return fetch
  }

  it('adds a warning with a counter, refuses more than 100 characters, and sends it', async () => {
    const fetch = setup()
    await userEvent.click(screen.getByRole('button', { name: 'Add content warning' }))
    const field = screen.getByRole('textbox', { name: 'Content warning' })
    await waitFor(() => expect(field).toHaveFocus())
    fireEvent.change(field, { target: { value: '🙂'.repeat(101) } })
    fireEvent.change(screen.getByRole('textbox', { name: "What's happening?" }), { target: { value: 'The ending' } })
    expect(screen.getByText('101/100')).toHaveClass('text-destructive')
    expect(screen.getByText('A content warning can be at most 100 characters long')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Post' })).toBeDisabled()

    fireEvent.change(field, { target: { value: '  Spoilers  ' } })
    expect(screen.getByText('8/100')).not.toHaveClass('text-destructive')
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))

    const sent = requestsOf(fetch).find((request) => request.call === 'POST /api/posts')
    expect(sent?.body).toMatchObject({ content: 'The ending', spoilerText: 'Spoilers' })
  })

  it("starts a reply with its parent's warning, which may be changed or removed", async () => {
    const fetch = setup({ replyToId: 10, replyToWarning: 'Book six spoilers' })
    const field = screen.getByRole('textbox', { name: 'Content warning' })
    expect(field).toHaveValue('Book six spoilers')
    expect(screen.getByRole('button', { name: 'Remove content warning' })).toHaveAttribute('aria-pressed', 'true')
    await userEvent.clear(field)
    await userEvent.type(field, 'Still spoilers')
    fireEvent.change(screen.getByRole('textbox', { name: 'Post your reply' }), { target: { value: 'I cried' } })
    await userEvent.click(screen.getByRole('button', { name: 'Reply' }))
    expect(requestsOf(fetch).find((r) => r.call === 'POST /api/posts')?.body).toMatchObject({
      spoilerText: 'Still spoilers',
      replyToId: 10,
    })
  })

  it('sends no warning once it is removed', async () => {
    const fetch = setup({ replyToId: 10, replyToWarning: 'Book six spoilers' })
    await userEvent.click(screen.getByRole('button', { name: 'Remove content warning' }))
    expect(screen.queryByRole('textbox', { name: 'Content warning' })).not.toBeInTheDocument()
    fireEvent.change(screen.getByRole('textbox', { name: 'Post your reply' }), { target: { value: 'Calm reply' } })
    await userEvent.click(screen.getByRole('button', { name: 'Reply' }))
    expect(requestsOf(fetch).find((r) => r.call === 'POST /api/posts')?.body).not.toHaveProperty('spoilerText')
  })

  it('keeps the warning and the text when the server refuses the post', async () => {
    mockFetch((url, init) => {
      if (url === '/api/auth/me') return json(aUser)
      if (url === '/api/posts' && init.method === 'POST') return json({ message: 'A content warning cannot contain text-direction control characters' }, 400)
      return json([])
    })
    renderWithProviders(<Composer />)
    await userEvent.click(screen.getByRole('button', { name: 'Add content warning' }))
    fireEvent.change(screen.getByRole('textbox', { name: 'Content warning' }), { target: { value: 'Spoilers' } })
    fireEvent.change(screen.getByRole('textbox', { name: "What's happening?" }), { target: { value: 'The ending' } })
    await userEvent.click(screen.getByRole('button', { name: 'Post' }))
    expect(await screen.findByText('A content warning cannot contain text-direction control characters')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Content warning' })).toHaveValue('Spoilers')
    expect(screen.getByRole('textbox', { name: "What's happening?" })).toHaveValue('The ending')
  })
})

describe('the content warning setting', () => {
  it('reads the member setting and saves a change', async () => {
    const fetch = mockFetch((url, init) => {
      if (url === '/api/users/preferences' && init.method === 'PUT')
        return json({ ...aUser, expandContentWarnings: (jsonBody(init) as { expandContentWarnings: boolean }).expandContentWarnings })
      return json(aUser)
    })
    const queryClient = createQueryClient()
    queryClient.setQueryData(authKeys.me(), { ...aUser, expandContentWarnings: false })
    renderWithProviders(<ContentWarningSetting />, queryClient)
    const toggle = screen.getByRole('switch', { name: 'Always expand posts with content warnings' })
    expect(toggle).not.toBeChecked()

    await userEvent.click(toggle)

    expect(toggle).toBeChecked()
    expect(requestsOf(fetch)).toContainEqual({ call: 'PUT /api/users/preferences', body: { expandContentWarnings: true } })
  })

  it('goes back when the server refuses', async () => {
    mockFetch(() => json({ message: 'Service unavailable' }, 503))
    const queryClient = createQueryClient()
    queryClient.setQueryData(authKeys.me(), { ...aUser, expandContentWarnings: true })
    renderWithProviders(<ContentWarningSetting />, queryClient)
    const toggle = screen.getByRole('switch', { name: 'Always expand posts with content warnings' })
    await userEvent.click(toggle)
    expect(await screen.findByText('Failed to save the setting. Please try again.')).toBeInTheDocument()
    expect(toggle).toBeChecked()
  })
})

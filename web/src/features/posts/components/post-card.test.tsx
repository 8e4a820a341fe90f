import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import type { Post } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'
import { aPost, aProfile, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { useFeed } from '../api/get-feed'
import { ComposeProvider } from './compose-provider'
import { PostCard } from './post-card'
import { PostList } from './post-list'

afterEach(() => {
  vi.unstubAllGlobals()
})

function Feed() {
  const feed = useFeed()
  return <PostList query={feed} currentUserId={1} empty={<p>empty</p>} />
}

function renderFeed(posts: Post[]) {
  const queryClient = createQueryClient()
  queryClient.setQueryData(postKeys.feed(), { pages: [posts], pageParams: [0] })
  renderWithProviders(
    <ComposeProvider>
      <Feed />
    </ComposeProvider>,
    queryClient,
  )
  return queryClient
}

describe('a post card', () => {
  it('likes at once and reverts with the spec toast when the server fails', async () => {
    let fail: () => void = () => {}
    mockFetch(() => new Promise<Response>((resolve) => (fail = () => resolve(new Response('nope', { status: 500 })))))
    renderFeed([aPost({ likeCount: 4, isLiked: false })])

    await userEvent.click(screen.getByRole('button', { name: 'Like (4)' }))
    expect(screen.getByRole('button', { name: 'Unlike (5)' })).toHaveAttribute('aria-pressed', 'true')

    fail()
    expect(await screen.findByRole('button', { name: 'Like (4)' })).toHaveAttribute('aria-pressed', 'false')
    expect(await screen.findByText('Failed to update like. Please try again.')).toBeInTheDocument()
  })

  it('on 401 says the member is logged out and goes to /api/login', async () => {
    mockFetch(() => json({ message: 'Unauthorized' }, 401))
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, set href(value: string) { assign(value) } })
    renderFeed([aPost({ likeCount: 4 })])
    await userEvent.click(screen.getByRole('button', { name: 'Like (4)' }))
    expect(await screen.findByText('Unauthorized')).toBeInTheDocument()
    expect(screen.getByText('You are logged out. Logging in again...')).toBeInTheDocument()
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/api/login'), { timeout: 1500 })
    expect(screen.getByRole('button', { name: 'Like (4)' })).toBeInTheDocument()
  })

  it('keeps the like and takes the server numbers when it succeeds', async () => {
    const fetch = mockFetch(() => json(aPost({ likeCount: 9, isLiked: true })))
    renderFeed([aPost({ likeCount: 4, isLiked: false })])
    await userEvent.click(screen.getByRole('button', { name: 'Like (4)' }))
    expect(await screen.findByRole('button', { name: 'Unlike (9)' })).toBeInTheDocument()
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/posts/10/like')
    expect(fetch.mock.calls[0]?.[1]?.method).toBe('POST')
  })

  it('reverts a repost with the spec toast', async () => {
    mockFetch(() => new Response('', { status: 500 }))
    renderFeed([aPost({ repostCount: 1, isReposted: false })])
    await userEvent.click(screen.getByRole('button', { name: 'Repost (1)' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Repost' }))
    expect(await screen.findByText('Failed to repost. Please try again.')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('button', { name: 'Repost (1)' })).toBeInTheDocument())
  })

  it("shows a repost as \"<name> reposted\" over the original, with the original's mentions linked", () => {
    mockFetch(() => json([]))
    const original = aPost({ id: 7, entities: [{ type: 'mention', start: 6, end: 12, value: 'grace' }] })
    renderFeed([
      aPost({
        id: 11,
        content: '♻️',
        entities: [],
        repostOfId: 7,
        repostOf: original,
        author: { id: 3, username: 'alan', displayName: 'Alan Turing', profileImageUrl: null },
      }),
    ])
    expect(screen.getByText('Alan Turing reposted')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: '@grace' })).toHaveAttribute('href', '/profile/grace')
  })

  it('shows "Load more posts" only after a full page', () => {
    mockFetch(() => json([]))
    const full = Array.from({ length: 20 }, (_, i) => aPost({ id: i + 1 }))
    renderFeed(full)
    expect(screen.getByRole('button', { name: 'Load more posts' })).toBeInTheDocument()
  })

  it('counts a Friends page full by the entries its cards stand for (a post reposted within it shows once)', () => {
    mockFetch(() => json([]))
    const cards = Array.from({ length: 19 }, (_, i) => aPost({ id: i + 1 }))
    cards[0] = { ...cards[0], feedEntries: 2 }
    renderFeed(cards)
    expect(screen.getByRole('button', { name: 'Load more posts' })).toBeInTheDocument()
  })

  it('ends the Friends feed after a page of fewer entries', () => {
    mockFetch(() => json([]))
    renderFeed(Array.from({ length: 19 }, (_, i) => aPost({ id: i + 1 })))
    expect(screen.queryByRole('button', { name: 'Load more posts' })).not.toBeInTheDocument()
  })

  it('draws a deleted post as a muted placeholder with no actions', () => {
    mockFetch(() => json([]))
    renderFeed([aPost({ id: 7, content: 'gone', isDeleted: true })])
    expect(screen.getByRole('article', { name: 'Deleted post' })).toHaveTextContent('This post was deleted')
    expect(screen.queryByText('gone')).not.toBeInTheDocument()
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
  })

  it('offers a poll to a member who has not voted as one button per choice, no results yet', () => {
    mockFetch(() => json([]))
    renderFeed([
      aPost({
        author: { id: 2, username: 'bob', displayName: 'Bob', profileImageUrl: null },
        pollOptions: ['Tea', 'Coffee'],
        pollVotes: { Tea: [3, 4, 5], Coffee: [6] },
        pollExpiresAt: new Date(Date.now() + 3600_000).toISOString(),
        myVote: null,
        myVotes: [],
        pinned: false,
        pollMultiple: false,
      }),
    ])
    expect(screen.getByRole('button', { name: 'Vote for Tea' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Vote for Coffee' })).toBeEnabled()
    expect(screen.queryByText('75%')).not.toBeInTheDocument()
    expect(screen.getByText('4 votes', { exact: false })).toBeInTheDocument()
  })

  it("shows a poll's results once the member voted", () => {
    mockFetch(() => json([]))
    renderFeed([
      aPost({
        author: { id: 2, username: 'bob', displayName: 'Bob', profileImageUrl: null },
        pollOptions: ['Tea', 'Coffee'],
        pollVotes: { Tea: [3, 4, 5], Coffee: [1] },
        pollExpiresAt: new Date(Date.now() + 3600_000).toISOString(),
        myVote: 'Coffee',
      }),
    ])
    expect(screen.queryByRole('button', { name: /^Vote for/ })).not.toBeInTheDocument()
    expect(screen.getByText('75%')).toBeInTheDocument()
    expect(screen.getByText('(your vote)')).toBeInTheDocument()
  })

  it('draws a post by a blocked or suspended author as "Post unavailable", with no author, content or actions', () => {
    mockFetch(() => json([]))
    renderFeed([
      aPost({
        id: 7,
        content: '',
        isUnavailable: true,
        author: { id: 0, username: '', displayName: '', profileImageUrl: null },
      }),
    ])
    const card = screen.getByRole('article', { name: 'Unavailable post' })
    expect(card).toHaveTextContent(/^Post unavailable$/)
    expect(screen.queryByRole('link')).not.toBeInTheDocument()
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
  })

  it('draws a repost of an unavailable post as unavailable too', () => {
    mockFetch(() => json([]))
    const original = aPost({ id: 7, content: '', isUnavailable: true })
    renderFeed([aPost({ id: 11, repostOfId: 7, repostOf: original })])
    expect(screen.getByRole('article', { name: 'Unavailable post' })).toBeInTheDocument()
    expect(screen.queryByText(/reposted/)).not.toBeInTheDocument()
  })

  it('shows its author a removed post with "Removed by moderators" and nothing to pass it on with', () => {
    mockFetch(() => json([]))
    renderFeed([
      aPost({
        content: 'Buy followers here',
        isRemoved: true,
        author: { id: 1, username: 'ada', displayName: 'Ada Lovelace', profileImageUrl: null },
      }),
    ])
    const card = screen.getByRole('article', { name: 'Ada Lovelace' })
    expect(card).toHaveTextContent('Buy followers here')
    expect(card).toHaveTextContent('Removed by moderators')
    for (const name of [/^Reply/, /^Repost/, /^Like/, 'Share'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Delete post' })).toBeInTheDocument()
  })

  it('bookmarks at once, reverts when the server fails, and keeps the mark when it succeeds', async () => {
    let fail: () => void = () => {}
    mockFetch(() => new Promise<Response>((resolve) => (fail = () => resolve(new Response('nope', { status: 500 })))))
    renderFeed([aPost({ isBookmarked: false })])
    await userEvent.click(screen.getByRole('button', { name: 'Bookmark' }))
    expect(screen.getByRole('button', { name: 'Bookmark' })).toHaveAttribute('aria-pressed', 'true')
    fail()
    expect(await screen.findByText('Failed to update bookmark. Please try again.')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('button', { name: 'Bookmark' })).toHaveAttribute('aria-pressed', 'false'))

    const fetch = mockFetch(() => json(aPost({ isBookmarked: true })))
    await userEvent.click(screen.getByRole('button', { name: 'Bookmark' }))
    await waitFor(() => expect(fetch).toHaveBeenCalled())
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/posts/10/bookmark')
    expect(fetch.mock.calls[0]?.[1]?.method).toBe('POST')
    expect(screen.getByRole('button', { name: 'Bookmark' })).toHaveAttribute('aria-pressed', 'true')
  })

  it("names the app a post was written from on the thread's own post, not in lists", () => {
    const fromApp = aPost({ id: 8, content: 'From my phone', application: { name: 'Ivory', website: 'https://tapbots.com' } })
    renderWithProviders(
      <ComposeProvider>
        <PostCard post={fromApp} emphasis />
      </ComposeProvider>,
    )
    expect(screen.getByText('via Ivory')).toBeInTheDocument()
  })

  it('does not name the app in a list of posts', () => {
    renderFeed([aPost({ id: 8, content: 'From my phone', application: { name: 'Ivory', website: null } })])
    expect(screen.getByText('From my phone')).toBeInTheDocument()
    expect(screen.queryByText('via Ivory')).not.toBeInTheDocument()
  })

  it('offers its author Edit within the hour, and nobody else; an edited post shows Edited and its history', async () => {
    mockFetch(() =>
      json([
        {
          content: 'Helo',
          writtenAt: '2026-11-20T10:00:00Z',
          replacedAt: '2026-11-20T10:05:00Z',
          images: [{ url: '/objects/a1', alt: 'A wave' }],
        },
      ]),
    )
    const inAnHour = new Date(Date.now() + 60 * 60 * 1000).toISOString()
    const aMinuteAgo = new Date(Date.now() - 60 * 1000).toISOString()
    renderFeed([
      aPost({ id: 1, content: 'Mine, new', editableUntil: inAnHour, author: { id: 1, username: 'ada', displayName: 'Ada', profileImageUrl: null } }),
      aPost({ id: 2, content: 'Mine, old', editableUntil: aMinuteAgo, author: { id: 1, username: 'ada', displayName: 'Ada', profileImageUrl: null } }),
      aPost({ id: 3, content: 'Hello', editedAt: new Date().toISOString() }),
    ])
    const [fresh, old, others] = screen.getAllByRole('article')
    expect(within(fresh).getByRole('button', { name: 'Edit post' })).toBeInTheDocument()
    expect(within(old).queryByRole('button', { name: 'Edit post' })).not.toBeInTheDocument()
    expect(within(others).queryByRole('button', { name: 'Edit post' })).not.toBeInTheDocument()
    expect(within(fresh).queryByRole('button', { name: /^Edited/ })).not.toBeInTheDocument()

    await userEvent.click(within(others).getByRole('button', { name: /^Edited/ }))
    const history = await screen.findByRole('dialog', { name: 'Edit history' })
    expect(await within(history).findByText('Helo')).toBeInTheDocument()
    expect(within(history).getByText('Hello')).toBeInTheDocument()
    expect(within(history).getByRole('img', { name: 'A wave' })).toHaveAttribute('src', '/objects/a1')
  })

  it("corrects an image's description from Edit, sending the images with their descriptions", async () => {
    const fetch = mockFetch(() => json(aPost({ id: 1, content: 'Hills' })))
    const inAnHour = new Date(Date.now() + 60 * 60 * 1000).toISOString()
    renderFeed([
      aPost({
        id: 1,
        content: 'Hills',
        editableUntil: inAnHour,
        author: { id: 1, username: 'ada', displayName: 'Ada', profileImageUrl: null },
        imageUrls: ['/objects/a1', '/objects/a2'],
        images: [
          { url: '/objects/a1', alt: 'Hils', width: 8, height: 8 },
          { url: '/objects/a2', alt: null, width: 8, height: 8 },
        ],
      }),
    ])
    await userEvent.click(screen.getByRole('button', { name: 'Edit post' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' })
    const first = within(dialog).getByRole('textbox', { name: 'Description of image 1' })
    expect(first).toHaveValue('Hils')
    await userEvent.clear(first)
    await userEvent.type(first, 'Hills at dusk')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(fetch).toHaveBeenCalled())
    expect(requestsOf(fetch)[0]).toEqual({
      call: 'PATCH /api/posts/1',
      body: {
        content: 'Hills',
        images: [
          { url: '/objects/a1', alt: 'Hills at dusk' },
          { url: '/objects/a2', alt: null },
        ],
      },
    })
  })

  it("says why a poll with votes can't be edited, where Edit was", async () => {
    mockFetch(() => json([]))
    const inAnHour = new Date(Date.now() + 60 * 60 * 1000).toISOString()
    renderFeed([
      aPost({
        id: 1,
        content: 'Tea or coffee?',
        editableUntil: inAnHour,
        author: { id: 1, username: 'ada', displayName: 'Ada', profileImageUrl: null },
        pollOptions: ['Tea', 'Coffee'],
        pollVotes: { Tea: [2], Coffee: [] },
        pollExpiresAt: inAnHour,
      }),
    ])
    const edit = screen.getByRole('button', { name: 'Edit post' })
    expect(edit).toHaveAttribute('aria-disabled', 'true')
    expect(edit).toHaveAccessibleDescription("Posts with votes can't be edited")
    await userEvent.click(edit)
    expect(await screen.findByText("Posts with votes can't be edited", { selector: 'div' })).toBeInTheDocument()
    expect(screen.queryByRole('dialog', { name: 'Edit post' })).not.toBeInTheDocument()
  })

  it('saves an edit from the dialog and shows the new text', async () => {
    const fetch = mockFetch(() => json(aPost({ id: 1, content: 'Fixed text', editedAt: new Date().toISOString() })))
    const inAnHour = new Date(Date.now() + 60 * 60 * 1000).toISOString()
    renderFeed([aPost({ id: 1, content: 'Fixd text', editableUntil: inAnHour, author: { id: 1, username: 'ada', displayName: 'Ada', profileImageUrl: null } })])
    await userEvent.click(screen.getByRole('button', { name: 'Edit post' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit post' })
    const text = within(dialog).getByRole('textbox', { name: 'Text' })
    await userEvent.clear(text)
    await userEvent.type(text, 'Fixed text')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Fixed text')).toBeInTheDocument()
    expect(requestsOf(fetch)[0]).toEqual({ call: 'PATCH /api/posts/1', body: { content: 'Fixed text' } })
    expect(screen.getByRole('button', { name: /^Edited/ })).toBeInTheDocument()
  })

  it('offers Pin to profile, not the member menu, on your own posts', async () => {
    mockFetch(() => json([]))
    renderFeed([aPost({ author: { id: 1, username: 'ada', displayName: 'Ada', profileImageUrl: null } })])
    expect(screen.getByRole('button', { name: 'Delete post' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'More actions' }))
    expect(await screen.findByRole('menuitem', { name: 'Pin to profile' })).toBeInTheDocument()
    expect(screen.queryByRole('menuitem', { name: /Mute/ })).not.toBeInTheDocument()
  })

  it("stays put when its menu and the dialogs it opens are clicked (they are portals, not the card)", async () => {
    mockFetch((url) => (url === '/api/users/grace' ? json(aProfile()) : json([])))
    window.history.replaceState(null, '', '/')
    renderFeed([aPost()])
    await userEvent.click(screen.getByRole('button', { name: 'More actions' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Report post' }))
    const dialog = await screen.findByRole('dialog', { name: 'Report post' })
    await userEvent.click(within(dialog).getByText('Spam'))
    await userEvent.click(within(dialog).getByText('Why are you reporting this?'))
    expect(window.location.pathname).toBe('/')
    expect(within(dialog).getByRole('radio', { name: 'Spam' })).toBeChecked()
  })

  it("opens its menu whole with the card's own data: no Loading, no profile asked for, Unmute for a muted author", async () => {
    const fetch = mockFetch(() => json([]))
    renderFeed([aPost({ authorMute: { until: null } })])
    await userEvent.click(screen.getByRole('button', { name: 'More actions' }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).queryByText('Loading...')).not.toBeInTheDocument()
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent?.trim())).toEqual([
      'Unmute @grace',
      'Block @grace',
      'Report post',
    ])
    expect(requestsOf(fetch).filter(({ call }) => call.startsWith('GET /api/users/'))).toEqual([])
  })

  it('opens an image in the lightbox, not the thread, and stays put when the lightbox is clicked', async () => {
    mockFetch(() => json([]))
    window.history.replaceState(null, '', '/')
    const url = `/objects/${'a'.repeat(32)}`
    renderFeed([aPost({ imageUrls: [url], images: [{ url, alt: 'A heron on one leg', width: 640, height: 480 }] })])
    await userEvent.click(screen.getByRole('img', { name: 'A heron on one leg' }))
    const lightbox = await screen.findByRole('dialog', { name: 'Image' })
    await userEvent.click(within(lightbox).getByRole('img', { name: 'A heron on one leg' }))
    expect(window.location.pathname).toBe('/')
    await userEvent.click(within(lightbox).getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(window.location.pathname).toBe('/')
  })

  // The first cards drawn before the scripts (crates/server/src/web/cards.rs) are this card unpressed: a plain button, announced as a menu's.
  it("draws another member's menu button as a plain button until pressed", () => {
    mockFetch(() => json([]))
    renderFeed([aPost()])
    const button = screen.getByRole('button', { name: 'More actions' })
    expect(Object.fromEntries([...button.attributes].map((attr) => [attr.name, attr.value]))).toEqual({
      type: 'button',
      class:
        'inline-flex size-9 items-center justify-center rounded-full text-sm text-muted-foreground transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50 ml-auto',
      'aria-label': 'More actions',
      'aria-haspopup': 'menu',
      'aria-expanded': 'false',
    })
  })
  it('shows the post a quote quotes in a box linking to its thread, behind its own warning', () => {
    mockFetch(() => json([]))
    const ada = { id: 3, username: 'ada', displayName: 'Ada Lovelace', profileImageUrl: null }
    const quoted = aPost({ id: 7, author: ada, content: 'Tea is a soup' })
    const warned = aPost({ id: 8, author: ada, content: 'The ending', spoilerText: 'Spoilers' })
    renderFeed([
      aPost({ id: 11, content: 'Hot take', quoteOfId: 7, quoteOf: quoted }),
      aPost({ id: 12, content: 'Careful', quoteOfId: 8, quoteOf: warned }),
    ])
    const box = screen.getByRole('link', { name: /Quoted post:.*Tea is a soup/ })
    expect(box).toHaveAttribute('href', '/post/7')
    expect(box).toHaveTextContent('@ada')
    const careful = screen.getAllByRole('article')[1]
    expect(careful).toHaveTextContent('Content warning: Spoilers')
    expect(careful).not.toHaveTextContent('The ending')
  })

  it('says "Post unavailable" for a quoted post gone or hidden, and "Removed by the author" once detached', () => {
    mockFetch(() => json([]))
    renderFeed([
      aPost({ id: 11, content: 'One', quoteOfId: 7, quoteOf: aPost({ id: 7, content: '', isUnavailable: true }) }),
      aPost({ id: 12, content: 'Two', quoteOfId: 8, quoteOf: aPost({ id: 8, content: '', isDeleted: true }) }),
      aPost({ id: 13, content: 'Three', quoteOfId: null, quoteOf: null, quoteDetached: true }),
    ])
    expect(screen.getAllByText('Post unavailable')).toHaveLength(2)
    expect(screen.getByText('Removed by the author')).toBeInTheDocument()
  })

  it('offers Repost and Quote from the repost button, and Quote opens the composer with the post under the text', async () => {
    mockFetch(() => json([]))
    renderFeed([aPost({ id: 7, content: 'Tea is a soup' })])
    await userEvent.click(screen.getByRole('button', { name: 'Repost (1)' }))
    expect(await screen.findByRole('menuitem', { name: 'Repost' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('menuitem', { name: 'Quote' }))
    const dialog = await screen.findByRole('dialog', { name: 'Create Post' })
    expect(within(dialog).getByText('Tea is a soup')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove quote' }))
    expect(within(dialog).queryByText('Tea is a soup')).not.toBeInTheDocument()
  })

  it('offers Quote as turned off when the author turned quoting off, and the author the switch', async () => {
    mockFetch(() => json([]))
    renderFeed([
      aPost({ id: 7, content: 'Not yours', quotesAllowed: false }),
      aPost({ id: 8, content: 'Mine', author: { id: 1, username: 'me', displayName: 'Me', profileImageUrl: null } }),
    ])
    const [theirs, mine] = screen.getAllByRole('article')
    await userEvent.click(within(theirs).getByRole('button', { name: /^Repost/ }))
    expect(await screen.findByRole('menuitem', { name: 'Quoting is turned off' })).toHaveAttribute('aria-disabled', 'true')
    await userEvent.keyboard('{Escape}')
    await userEvent.click(within(mine).getByRole('button', { name: /^Repost/ }))
    expect(await screen.findByRole('menuitem', { name: 'Turn off quoting' })).toBeInTheDocument()
  })

  const card = {
    url: 'https://news.example/keepers',
    title: 'How the keepers kept the light',
    description: 'A short history.',
    siteName: 'Coastal Notes',
    imageUrl: '/objects/0123456789abcdef0123456789abcdef',
  }

  it("shows a link's card as one link to the page, and its author alone may remove it", async () => {
    const fetch = mockFetch(() => json(aPost({ author: { id: 1, username: 'me', displayName: 'Me', profileImageUrl: null }, card: null })))
    renderFeed([aPost({ id: 11, card }), aPost({ id: 12, author: { id: 1, username: 'me', displayName: 'Me', profileImageUrl: null }, card })])
    const links = screen.getAllByRole('link', { name: /How the keepers kept the light/ })
    expect(links).toHaveLength(2)
    expect(links[0]).toHaveAttribute('href', card.url)
    expect(links[0]).toHaveAttribute('target', '_blank')
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc')
    expect(links[0]).toHaveAccessibleName(/Coastal Notes/)
    expect(within(links[0]).getByRole('presentation')).toHaveAttribute('loading', 'lazy')
    const remove = screen.getAllByRole('button', { name: 'Remove preview' })
    expect(remove).toHaveLength(1)

    await userEvent.click(remove[0])
    await waitFor(() => expect(screen.getAllByRole('link', { name: /How the keepers kept the light/ })).toHaveLength(1))
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/posts/12/card')
    expect(fetch.mock.calls[0]?.[1]?.method).toBe('DELETE')
  })

  it("hides a link's card behind the post's content warning", async () => {
    mockFetch(() => json([]))
    renderFeed([aPost({ spoilerText: 'Spoilers', card })])
    expect(screen.queryByRole('link', { name: /How the keepers/ })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Show post' }))
    expect(screen.getByRole('link', { name: /How the keepers/ })).toBeInTheDocument()
  })
})

import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Profile } from '@/lib/types'
import { aProfile, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { MemberMenu } from './member-menu'

afterEach(() => {
  vi.unstubAllGlobals()
})

const grace = { id: 2, username: 'grace' }

/** The menu on Grace's post (10) as on its card, with the API answering Grace's profile as `profile` and every write with 201/204. */
function renderGracesPost(profile: Profile = aProfile()) {
  const fetch = mockFetch((url, init) => {
    if (init.method === 'POST') return json({ user: profile, createdAt: new Date().toISOString(), expiresAt: null }, 201)
    if (init.method === 'DELETE') return new Response(null, { status: 204 })
    if (url === '/api/users/grace') return json(profile)
    return json([])
  })
  renderMenu()
  return fetch
}

function renderMenu() {
  renderWithProviders(
    <MemberMenu
      member={grace}
      postId={10}
      trigger={
        <button type="button" aria-label="More actions">
          …
        </button>
      }
    />,
  )
}

const writes = (fetch: ReturnType<typeof mockFetch>) => requestsOf(fetch).filter(({ call }) => !call.startsWith('GET'))

async function openMenu() {
  await userEvent.click(screen.getByRole('button', { name: 'More actions' }))
  return screen.findByRole('menu')
}

describe("the menu on another member's post", () => {
  it('offers mute, block and report of the post, and mutes for the length picked', async () => {
    const fetch = renderGracesPost()
    const menu = await openMenu()
    const mute = await within(menu).findByRole('group', { name: 'Mute @grace' })
    expect(within(mute).getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'For 1 hour',
      'For 1 day',
      'For 1 week',
      'Until I unmute',
    ])
    expect(within(menu).getByRole('menuitem', { name: 'Block @grace' })).toBeInTheDocument()
    expect(within(menu).getByRole('menuitem', { name: 'Report post' })).toBeInTheDocument()
    await userEvent.click(within(mute).getByRole('menuitem', { name: 'For 1 day' }))

    expect(await screen.findByText('Muted @grace')).toBeInTheDocument()
    expect(screen.getByText('For 1 day.')).toBeInTheDocument()
    expect(writes(fetch)).toEqual([{ call: 'POST /api/mutes', body: { userId: 2, durationHours: 24 } }])
  })

  it('mutes until unmuted with no length', async () => {
    const fetch = renderGracesPost()
    const menu = await openMenu()
    await userEvent.click(await within(menu).findByRole('menuitem', { name: 'Until I unmute' }))
    expect(await screen.findByText('Until you unmute them.')).toBeInTheDocument()
    expect(writes(fetch)).toEqual([{ call: 'POST /api/mutes', body: { userId: 2, durationHours: null } }])
  })

  it('offers Unmute and Unblock for a member muted and blocked, and undoes at once', async () => {
    const fetch = renderGracesPost(aProfile({ isMuting: true, isBlocking: true }))
    const menu = await openMenu()
    await userEvent.click(await within(menu).findByRole('menuitem', { name: 'Unmute @grace' }))
    expect(await screen.findByText('Unmuted @grace')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'More actions' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Unblock @grace' }))
    expect(await screen.findByText('Unblocked @grace')).toBeInTheDocument()
    expect(writes(fetch)).toEqual([{ call: 'DELETE /api/mutes/2' }, { call: 'DELETE /api/blocks/2' }])
  })

  it('works from the keyboard and gives focus back to its button', async () => {
    renderGracesPost()
    const button = screen.getByRole('button', { name: 'More actions' })
    expect(button).toHaveAttribute('aria-haspopup', 'menu')
    button.focus()
    await userEvent.keyboard('{Enter}')
    const menu = await screen.findByRole('menu')
    await within(menu).findByRole('menuitem', { name: 'For 1 hour' })
    await userEvent.keyboard('{ArrowDown}')
    expect(within(menu).getByRole('menuitem', { name: 'For 1 hour' })).toHaveFocus()
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}')
    expect(within(menu).getByRole('menuitem', { name: 'Block @grace' })).toHaveFocus()
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument())
    await waitFor(() => expect(screen.getByRole('button', { name: 'More actions' })).toHaveFocus())
  })
})

describe('the menu on a post card, which knows where the member stands', () => {
  function renderCardMenu(relation: { isMuting: boolean; isBlocking: boolean }) {
    const fetch = mockFetch(() => json([]))
    renderWithProviders(
      <MemberMenu
        member={grace}
        postId={10}
        relation={relation}
        trigger={
          <button type="button" aria-label="More actions">
            …
          </button>
        }
      />,
    )
    return fetch
  }

  it('opens whole at once, and the arrow keys walk its items in order', async () => {
    const fetch = renderCardMenu({ isMuting: false, isBlocking: false })
    screen.getByRole('button', { name: 'More actions' }).focus()
    await userEvent.keyboard('{Enter}')
    const menu = await screen.findByRole('menu')
    expect(within(menu).queryByText('Loading...')).not.toBeInTheDocument()
    const order = ['For 1 hour', 'For 1 day', 'For 1 week', 'Until I unmute', 'Block @grace', 'Report post']
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent?.trim())).toEqual(order)
    for (const name of order) {
      await userEvent.keyboard('{ArrowDown}')
      expect(within(menu).getByRole('menuitem', { name })).toHaveFocus()
    }
    expect(requestsOf(fetch)).toEqual([])
  })

  it('offers Unmute for a member the card says is muted', async () => {
    renderCardMenu({ isMuting: true, isBlocking: false })
    await userEvent.click(screen.getByRole('button', { name: 'More actions' }))
    const menu = await screen.findByRole('menu')
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent?.trim())).toEqual([
      'Unmute @grace',
      'Block @grace',
      'Report post',
    ])
  })
})

describe('the block confirm', () => {
  async function openBlockDialog() {
    const menu = await openMenu()
    await userEvent.click(await within(menu).findByRole('menuitem', { name: 'Block @grace' }))
    return screen.findByRole('dialog', { name: 'Block @grace?' })
  }

  it('says what a block does, and Cancel blocks nobody and gives focus back to the menu button', async () => {
    const fetch = renderGracesPost()
    const dialog = await openBlockDialog()
    expect(dialog).toHaveAccessibleDescription(
      "They can't follow you or interact with you, and you won't see each other's posts. Any follows between you end. You can unblock them later in Settings.",
    )
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(screen.getByRole('button', { name: 'More actions' })).toHaveFocus())
    expect(document.body.style.pointerEvents).toBe('')
    expect(writes(fetch)).toEqual([])
  })

  it('blocks on confirmation and says so', async () => {
    const fetch = renderGracesPost()
    const dialog = await openBlockDialog()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Block @grace' }))
    expect(await screen.findByText('Blocked @grace')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(writes(fetch)).toEqual([{ call: 'POST /api/blocks', body: { userId: 2 } }])
  })

  it("shows the server's refusal and stays open", async () => {
    mockFetch((url, init) => {
      if (init.method === 'POST') return json({ message: "You can't block yourself" }, 400)
      return url === '/api/users/grace' ? json(aProfile()) : json([])
    })
    renderMenu()
    const dialog = await openBlockDialog()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Block @grace' }))
    expect(await screen.findByText("You can't block yourself")).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Block @grace?' })).toBeInTheDocument()
  })
})

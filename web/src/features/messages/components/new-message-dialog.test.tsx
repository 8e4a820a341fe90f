import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aConversation, aUser, grace, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { NewMessageDialog } from './new-message-dialog'

afterEach(() => vi.unstubAllGlobals())

const hedy = { ...grace, id: 3, username: 'hedy', displayName: 'Hedy Lamarr' }

function setup(open: () => Response) {
  const fetch = mockFetch((url, init) => {
    if (url.startsWith('/api/users/search')) return json([aUser, grace, hedy])
    if (init.method === 'POST' && url === '/api/conversations') return open()
    return json([])
  })
  const location = memoryLocation({ path: '/messages', record: true })
  const onOpenChange = vi.fn()
  renderWithProviders(
    <Router hook={location.hook}>
      <NewMessageDialog open onOpenChange={onOpenChange} memberId={aUser.id} />
    </Router>,
  )
  return { fetch, location, onOpenChange }
}

describe('New message', () => {
  it('finds people by name, leaves the member out, and opens the conversation with those chosen', async () => {
    const { fetch, location, onOpenChange } = setup(() => json(aConversation({ id: 12, members: [grace, hedy] }), 201))
    const dialog = screen.getByRole('dialog', { name: 'New message' })
    const start = within(dialog).getByRole('button', { name: 'Open conversation' })
    expect(start).toBeDisabled()

    await userEvent.type(within(dialog).getByRole('searchbox', { name: 'Search people' }), 'h')
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: /@grace/ }))
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /@hedy/ }))
    expect(within(dialog).queryByRole('checkbox', { name: /@ada/ })).not.toBeInTheDocument()
    expect(within(within(dialog).getByRole('list', { name: 'Chosen' })).getAllByRole('listitem')).toHaveLength(2)

    await userEvent.click(start)
    await waitFor(() => expect(location.history.at(-1)).toBe('/messages/12'))
    expect(requestsOf(fetch).find(({ call }) => call === 'POST /api/conversations')?.body).toEqual({ memberIds: [2, 3] })
    expect(onOpenChange).toHaveBeenCalledWith(false)
  })

  it('shows a refusal naming the member, the choice kept', async () => {
    setup(() => json({ message: '@grace takes new messages only from people they follow' }, 403))
    const dialog = screen.getByRole('dialog', { name: 'New message' })
    await userEvent.type(within(dialog).getByRole('searchbox', { name: 'Search people' }), 'grace')
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: /@grace/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open conversation' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('@grace takes new messages only from people they follow')
    expect(within(dialog).getByRole('checkbox', { name: /@grace/ })).toBeChecked()
  })
})

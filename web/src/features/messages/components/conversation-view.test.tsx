import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Conversation, Message } from '@/lib/types'
import { aConversation, aMessage, aUser, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { ConversationView } from './conversation-view'

afterEach(() => vi.unstubAllGlobals())

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

/** Ada opens conversation 7; the server answers it and its messages (newest first, as it does). */
function open(conversation: Conversation, newestFirst: Message[]) {
  const fetch = mockFetch((url, init) => {
    const method = init.method ?? 'GET'
    if (method === 'GET' && url === '/api/conversations/7') return json(conversation)
    if (method === 'GET' && url.startsWith('/api/conversations/7/messages')) return json(newestFirst)
    if (method === 'POST' && url === '/api/conversations/7/accept') return json({ ...conversation, box: 'inbox' })
    if (method === 'PUT' && url === '/api/conversations/7/mute') return json({ ...conversation, muted: true })
    if (method === 'GET' && url.startsWith('/api/conversations?')) return json([])
    if (url === '/api/conversations/unread-count') return json({ count: 0 })
    return new Response(null, { status: 204 })
  })
  const location = memoryLocation({ path: '/messages/7?box=requests', record: true })
  renderWithProviders(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <ConversationView id={7} memberId={aUser.id} />
    </Router>,
  )
  return { fetch, location, calls: () => requestsOf(fetch).map(({ call }) => call) }
}

describe('a conversation', () => {
  it('shows its messages oldest at the top, named, and marks it read', async () => {
    const { calls } = open(aConversation({ unread: true }), [
      aMessage({ id: 102, author: aUser, content: 'Hi Grace', createdAt: minutesAgo(1) }),
      aMessage({ id: 101, content: 'Hello Ada', createdAt: minutesAgo(30) }),
    ])
    const list = await screen.findByRole('list', { name: 'Messages' })
    const items = within(list).getAllByRole('listitem')
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Grace Hopper.*Hello Ada/),
      expect.stringMatching(/^You.*Hi Grace/),
    ])
    expect(screen.getByRole('heading', { name: 'Grace Hopper' })).toBeInTheDocument()
    await waitFor(() => expect(calls()).toContain('POST /api/conversations/7/read'))
  })

  it('keeps the place of a removed message with why its words are gone', async () => {
    open(aConversation(), [
      aMessage({ id: 103, author: null, content: '', removed: 'memberDeleted' }),
      aMessage({ id: 102, author: aUser, content: '', removed: 'deleted' }),
      aMessage({ id: 101, content: 'Still here' }),
    ])
    expect(await screen.findByText('Message deleted')).toBeInTheDocument()
    expect(screen.getByText('Message from a deleted member removed')).toBeInTheDocument()
    expect(screen.getByText('Still here')).toBeInTheDocument()
    // Nothing left to delete in a removed message.
    expect(screen.queryByRole('button', { name: 'Delete message' })).not.toBeInTheDocument()
  })

  it('deletes the member’s own message after asking', async () => {
    const { calls } = open(aConversation(), [aMessage({ id: 102, author: aUser, content: 'Oops, wrong chat' })])
    await userEvent.click(await screen.findByRole('button', { name: 'Delete message' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete this message?' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Message deleted')).toBeInTheDocument()
    expect(screen.queryByText('Oops, wrong chat')).not.toBeInTheDocument()
    expect(calls()).toContain('DELETE /api/messages/102')
  })

  it('offers Accept and Decline on a request', async () => {
    const request = aConversation({ box: 'requests', unread: true, lastMessage: aMessage() })
    const { calls, location } = open(request, [aMessage()])
    const banner = await screen.findByRole('region', { name: 'Message request' })
    expect(within(banner).getByText(/This is a message request/)).toBeInTheDocument()

    await userEvent.click(within(banner).getByRole('button', { name: 'Accept' }))
    await waitFor(() => expect(calls()).toContain('POST /api/conversations/7/accept'))
    // In the inbox now: no more banner, and the address no longer names Requests.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Message request' })).not.toBeInTheDocument())
    expect(location.history.at(-1)).toBe('/messages/7')
  })

  it('declines a request without asking twice', async () => {
    const { calls, location } = open(aConversation({ box: 'requests' }), [aMessage()])
    const banner = await screen.findByRole('region', { name: 'Message request' })
    await userEvent.click(within(banner).getByRole('button', { name: 'Decline' }))
    await waitFor(() => expect(calls()).toContain('DELETE /api/conversations/7'))
    await waitFor(() => expect(location.history.at(-1)).toBe('/messages?box=requests'))
    expect(await screen.findByText('Request declined')).toBeInTheDocument()
  })

  it('tells the starter of an unaccepted request it was sent as a request', async () => {
    open(aConversation({ sentAsRequest: true }), [aMessage({ author: aUser, content: 'Hi, we met at the talk' })])
    expect(await screen.findByText('Sent as a request.')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Message request' })).not.toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument()
  })

  it('says so instead of a composer when it takes no new messages', async () => {
    open(aConversation({ canSend: false }), [aMessage()])
    expect(await screen.findByText('This conversation takes no new messages')).toBeInTheDocument()
    expect(screen.queryByRole('textbox', { name: 'Message' })).not.toBeInTheDocument()
  })

  it('mutes from its menu', async () => {
    const { fetch } = open(aConversation(), [aMessage()])
    await userEvent.click(await screen.findByRole('button', { name: 'Conversation options' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Mute' }))
    await waitFor(() =>
      expect(requestsOf(fetch)).toContainEqual({ call: 'PUT /api/conversations/7/mute', body: { muted: true } }),
    )
    expect(await screen.findByText('Conversation muted')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Conversation options' }))
    expect(await screen.findByRole('menuitem', { name: 'Unmute' })).toBeInTheDocument()
  })
})

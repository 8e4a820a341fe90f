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

/** Ada has conversation 7 open; `report` answers her report. */
function open({
  conversation = aConversation(),
  newestFirst,
  report = () => json({ id: 1, reason: 'harassment', comment: null, createdAt: '' }, 201),
}: {
  conversation?: Conversation
  newestFirst: Message[]
  report?: () => Response
}) {
  const fetch = mockFetch((url, init) => {
    const method = init.method ?? 'GET'
    if (method === 'POST' && url === '/api/reports') return report()
    if (method === 'GET' && url === '/api/conversations/7') return json(conversation)
    if (method === 'GET' && url.startsWith('/api/conversations/7/messages')) return json(newestFirst)
    if (url === '/api/conversations/unread-count') return json({ count: 0 })
    return new Response(null, { status: 204 })
  })
  renderWithProviders(
    <Router hook={memoryLocation({ path: '/messages/7' }).hook}>
      <ConversationView id={7} memberId={aUser.id} />
    </Router>,
  )
  return { reports: () => requestsOf(fetch).filter(({ call }) => call === 'POST /api/reports') }
}

const conversation = [
  aMessage({ id: 104, content: 'You will regret this', createdAt: minutesAgo(1) }),
  aMessage({ id: 103, author: aUser, content: 'Please stop', createdAt: minutesAgo(2) }),
  aMessage({ id: 102, content: '', removed: 'deleted', createdAt: minutesAgo(3) }),
  aMessage({ id: 101, content: 'Hello Ada', createdAt: minutesAgo(4) }),
]

async function openReport() {
  await userEvent.click(await screen.findByRole('button', { name: 'Conversation options' }))
  await userEvent.click(await screen.findByRole('menuitem', { name: 'Report' }))
  return screen.findByRole('dialog', { name: 'Report messages' })
}

describe('reporting messages of a conversation', () => {
  it('lists the messages oldest first, none chosen, and sends the ones chosen with the reason', async () => {
    const { reports } = open({ newestFirst: conversation })
    const dialog = await openReport()
    expect(dialog).toHaveTextContent('Moderators will see only the messages you choose.')
    const choices = within(dialog).getByRole('group', { name: 'Messages to report' })
    const boxes = within(choices).getAllByRole('checkbox')
    // A deleted message has nothing to report.
    expect(boxes.map((box) => box.closest('label')?.textContent)).toEqual([
      expect.stringMatching(/^Grace Hopper.*Hello Ada$/),
      expect.stringMatching(/^You.*Please stop$/),
      expect.stringMatching(/^Grace Hopper.*You will regret this$/),
    ])
    for (const box of boxes) expect(box).not.toBeChecked()

    // Her own message alone is not a report.
    await userEvent.click(boxes[1])
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }))
    expect(choices).toHaveAccessibleDescription(expect.stringContaining('Choose a message someone else wrote'))
    expect(reports()).toEqual([])

    await userEvent.click(boxes[2])
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Harassment' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }))
    expect(await screen.findByText('Report sent')).toBeInTheDocument()
    expect(reports()).toEqual([{ call: 'POST /api/reports', body: { messageIds: [103, 104], reason: 'harassment' } }])
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Report messages' })).not.toBeInTheDocument())
  })

  it("shows the server's refusal and keeps every choice", async () => {
    open({
      newestFirst: conversation,
      report: () => json({ message: 'Choose messages by one other member' }, 400),
    })
    const dialog = await openReport()
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Hello Ada/ }))
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Spam' }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Comment (optional)' }), 'Again')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }))
    expect(await screen.findByText('Choose messages by one other member')).toBeInTheDocument()
    expect(within(dialog).getByRole('checkbox', { name: /Hello Ada/ })).toBeChecked()
    expect(within(dialog).getByRole('radio', { name: 'Spam' })).toBeChecked()
    expect(within(dialog).getByRole('textbox', { name: 'Comment (optional)' })).toHaveValue('Again')
    expect(within(dialog).getByRole('button', { name: 'Send report' })).toBeEnabled()
  })

  it('takes at most 20 messages, and says so', async () => {
    const many = Array.from({ length: 21 }, (_, n) => aMessage({ id: 200 - n, content: `Spam number ${21 - n}`, createdAt: minutesAgo(n + 1) }))
    open({ newestFirst: many })
    const dialog = await openReport()
    const boxes = within(dialog).getAllByRole('checkbox')
    for (const box of boxes.slice(0, 20)) await userEvent.click(box)
    expect(boxes[20]).toBeDisabled()
    expect(within(dialog).getByRole('group', { name: 'Messages to report' })).toHaveAccessibleDescription(
      'You chose 20, the most one report takes.',
    )
    await userEvent.click(boxes[0])
    expect(boxes[20]).toBeEnabled()
  })

  it('offers no report in a conversation with no one else left', async () => {
    open({ conversation: aConversation({ members: [] }), newestFirst: conversation })
    await userEvent.click(await screen.findByRole('button', { name: 'Conversation options' }))
    await screen.findByRole('menuitem', { name: 'Mute' })
    expect(screen.queryByRole('menuitem', { name: 'Report' })).not.toBeInTheDocument()
  })
})

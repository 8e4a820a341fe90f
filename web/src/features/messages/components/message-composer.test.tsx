import { fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aMessage, aUser, json, jsonBody, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { messageDraftKey } from '../lib/drafts'
import { MessageComposer } from './message-composer'

afterEach(() => vi.unstubAllGlobals())

const sends = (fetch: ReturnType<typeof mockFetch>) =>
  requestsOf(fetch).filter(({ call }) => call.startsWith('POST /api/conversations/'))

/** Ada's composer in `conversationId`; the server takes messages, or answers `refuse`. */
function setup(conversationId = 7, refuse?: () => Response) {
  const fetch = mockFetch((url, init) => {
    if (init.method === 'POST' && url === `/api/conversations/${conversationId}/messages`) {
      if (refuse) return refuse()
      const { content } = jsonBody(init) as { content: string }
      return json(aMessage({ id: 200, conversationId, author: aUser, content }), 201)
    }
    return json({})
  })
  const view = renderWithProviders(<MessageComposer key={conversationId} conversationId={conversationId} memberId={aUser.id} />)
  return { fetch, view, textbox: () => screen.getByRole('textbox', { name: 'Message' }) }
}

describe('the message composer', () => {
  it('sends with Enter and starts a new line with Shift+Enter', async () => {
    const { fetch, textbox } = setup()
    await userEvent.type(textbox(), 'First line{Shift>}{Enter}{/Shift}second line')
    expect(textbox()).toHaveValue('First line\nsecond line')
    expect(sends(fetch)).toEqual([])

    await userEvent.type(textbox(), '{Enter}')
    await waitFor(() => expect(textbox()).toHaveValue(''))
    expect(sends(fetch)).toEqual([{ call: 'POST /api/conversations/7/messages', body: { content: 'First line\nsecond line' } }])
  })

  it('sends nothing while only spaces are written, and counts against the longest message', async () => {
    const { fetch, textbox } = setup()
    await userEvent.type(textbox(), '   {Enter}')
    expect(sends(fetch)).toEqual([])
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()

    fireEvent.change(textbox(), { target: { value: 'é'.repeat(1001) } })
    expect(screen.getByText('1001/1000')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()
    expect(textbox()).toHaveAttribute('aria-invalid', 'true')
  })

  it('keeps a draft for each conversation, through a reload, until it is sent', async () => {
    const first = setup(7)
    await userEvent.type(first.textbox(), 'Half a thought')
    expect(localStorage.getItem(messageDraftKey(aUser.id, 7))).toBe('Half a thought')
    first.view.unmount()

    // Another conversation starts empty; its own draft is its own.
    const second = setup(8)
    expect(second.textbox()).toHaveValue('')
    await userEvent.type(second.textbox(), 'For Grace')
    second.view.unmount()

    // Back in the first (as after a reload): the draft is there; sending it clears it.
    const again = setup(7)
    expect(again.textbox()).toHaveValue('Half a thought')
    await userEvent.type(again.textbox(), '{Enter}')
    await waitFor(() => expect(again.textbox()).toHaveValue(''))
    expect(localStorage.getItem(messageDraftKey(aUser.id, 7))).toBeNull()
    expect(localStorage.getItem(messageDraftKey(aUser.id, 8))).toBe('For Grace')
  })

  it('loses nothing on a refused send: the words stay, kept, and the reason shows', async () => {
    const { fetch, textbox } = setup(7, () =>
      json({ message: 'Sent as a request: you can send more messages once it is accepted' }, 422),
    )
    await userEvent.type(textbox(), 'One more thing{Enter}')
    expect(await screen.findByRole('alert')).toHaveTextContent('Sent as a request: you can send more messages once it is accepted')
    expect(textbox()).toHaveValue('One more thing')
    expect(localStorage.getItem(messageDraftKey(aUser.id, 7))).toBe('One more thing')
    expect(sends(fetch)).toHaveLength(1)

    // Writing again clears the old reason.
    await userEvent.type(textbox(), '!')
    expect(screen.getByRole('alert')).toBeEmptyDOMElement()
  })
})

import { describe, expect, it, vi } from 'vitest'
import { aMessage, aUser, renderWithProviders } from '@/test/test-utils'
import { MessageList } from './message-list'

const messages = [aMessage({ id: 101, content: 'Hello Ada' }), aMessage({ id: 102, content: 'Hi Grace' })]

describe('the message history', () => {
  it('loads older messages once a reading again that held them back is done, the reader still at the top', () => {
    const loadOlder = vi.fn()
    const props = { messages, memberId: aUser.id, hasOlder: true, loadingOlder: false, olderFailed: false, loadOlder, empty: null }
    // A live change is being read again: older messages wait.
    const { rerender } = renderWithProviders(<MessageList {...props} refreshing />)
    expect(loadOlder).not.toHaveBeenCalled()
    rerender(<MessageList {...props} refreshing={false} />)
    expect(loadOlder).toHaveBeenCalledTimes(1)
  })

  it('does not try again by itself after loading older messages failed', () => {
    const loadOlder = vi.fn()
    renderWithProviders(
      <MessageList messages={messages} memberId={aUser.id} hasOlder loadingOlder={false} refreshing={false} olderFailed loadOlder={loadOlder} empty={null} />,
    )
    expect(loadOlder).not.toHaveBeenCalled()
  })
})

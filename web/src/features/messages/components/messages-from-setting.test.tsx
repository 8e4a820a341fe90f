import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { authKeys } from '@/lib/query-keys'
import type { MessagesFrom } from '@/lib/types'
import { aUser, json, jsonBody, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { MessagesFromSetting } from './messages-from-setting'

afterEach(() => vi.unstubAllGlobals())

function setup(answer: (body: { messagesFrom: MessagesFrom }) => Response) {
  const fetch = mockFetch((_url, init) => answer(jsonBody(init) as { messagesFrom: MessagesFrom }))
  const queryClient = createQueryClient()
  queryClient.setQueryData(authKeys.me(), { ...aUser, messagesFrom: 'following' })
  renderWithProviders(<MessagesFromSetting />, queryClient)
  return fetch
}

describe('Allow new messages from', () => {
  it('shows the saved choice and saves another at once', async () => {
    const fetch = setup((body) => json({ ...aUser, messagesFrom: body.messagesFrom }))
    const group = screen.getByRole('group', { name: 'Allow new messages from' })
    expect(group).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'People I follow' })).toBeChecked()

    await userEvent.click(screen.getByRole('radio', { name: 'Everyone' }))
    expect(screen.getByRole('radio', { name: 'Everyone' })).toBeChecked()
    await waitFor(() =>
      expect(requestsOf(fetch)).toEqual([{ call: 'PUT /api/users/preferences', body: { messagesFrom: 'everyone' } }]),
    )
  })

  it('goes back to the saved choice when the server refuses', async () => {
    setup(() => json({ message: 'Try again later' }, 400))
    await userEvent.click(screen.getByRole('radio', { name: 'No one' }))
    expect(await screen.findByText('Try again later')).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'People I follow' })).toBeChecked()
  })
})

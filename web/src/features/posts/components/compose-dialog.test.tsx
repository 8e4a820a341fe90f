import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aPost, aUser, json, mockFetch, renderWithProviders } from '@/test/test-utils'
import { createQueryClient } from '@/lib/query-client'
import { authKeys } from '@/lib/query-keys'
import { draftKey } from '../lib/drafts'
import ComposeDialog from './compose-dialog'

afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

/** The "Create Post" dialog, open, for Ada; `onOpenChange` is what the provider would be told. */
function renderOpen(replyTo?: ReturnType<typeof aPost>) {
  mockFetch((url) => (url === '/api/auth/me' ? json(aUser) : json([])))
  const queryClient = createQueryClient()
  queryClient.setQueryData(authKeys.me(), aUser)
  const onOpenChange = vi.fn()
  renderWithProviders(<ComposeDialog open onOpenChange={onOpenChange} replyTo={replyTo} />, queryClient)
  return { onOpenChange, dialog: screen.getByRole('dialog', { name: 'Create Post' }) }
}

describe('closing the Create Post dialog', () => {
  it('closes at once when nothing is written', async () => {
    const { onOpenChange } = renderOpen()
    await userEvent.keyboard('{Escape}')
    expect(onOpenChange).toHaveBeenCalledWith(false)
    expect(screen.queryByRole('dialog', { name: 'Discard post?' })).not.toBeInTheDocument()
  })

  it('asks "Discard post?" when something is written; Keep editing keeps it all', async () => {
    const { onOpenChange, dialog } = renderOpen()
    const textbox = within(dialog).getByRole('textbox', { name: "What's happening?" })
    await userEvent.type(textbox, 'Not finished')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }))

    const question = await screen.findByRole('dialog', { name: 'Discard post?' })
    expect(onOpenChange).not.toHaveBeenCalled()
    await userEvent.click(within(question).getByRole('button', { name: 'Keep editing' }))
    expect(screen.queryByRole('dialog', { name: 'Discard post?' })).not.toBeInTheDocument()
    expect(onOpenChange).not.toHaveBeenCalled()
    expect(textbox).toHaveValue('Not finished')
    expect(localStorage.getItem(draftKey(aUser.id, { kind: 'dialog' }))).toContain('Not finished')
  })

  it('Discard closes the dialog and forgets the draft', async () => {
    const { onOpenChange, dialog } = renderOpen()
    await userEvent.type(within(dialog).getByRole('textbox', { name: "What's happening?" }), 'Never mind')
    await userEvent.keyboard('{Escape}')
    const question = await screen.findByRole('dialog', { name: 'Discard post?' })
    await userEvent.click(within(question).getByRole('button', { name: 'Discard' }))
    expect(onOpenChange).toHaveBeenCalledWith(false)
    expect(localStorage.getItem(draftKey(aUser.id, { kind: 'dialog' }))).toBeNull()
  })

  it('asks for a reply too, and keeps the reply as its own draft', async () => {
    const { dialog } = renderOpen(aPost({ id: 42 }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Post your reply' }), 'Agreed')
    await userEvent.keyboard('{Escape}')
    expect(await screen.findByRole('dialog', { name: 'Discard post?' })).toBeInTheDocument()
    expect(localStorage.getItem(draftKey(aUser.id, { kind: 'reply', postId: 42 }))).toContain('Agreed')
  })
})

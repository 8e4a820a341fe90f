import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { ReportDialog } from './report-dialog'

afterEach(() => {
  vi.unstubAllGlobals()
})

const grace = { id: 2, username: 'grace' }

function setup({ postId, answer }: { postId?: number; answer?: () => Response } = {}) {
  const fetch = mockFetch((_url, init) => {
    if (init.method === 'POST') return answer?.() ?? json({ id: 1, reason: 'spam', comment: null, createdAt: '' }, 201)
    return json([])
  })
  const onOpenChange = vi.fn()
  renderWithProviders(<ReportDialog member={grace} postId={postId} open onOpenChange={onOpenChange} />)
  return { fetch, onOpenChange, writes: () => requestsOf(fetch).filter(({ call }) => call.startsWith('POST')) }
}

describe('the report dialog', () => {
  it('offers the four reasons as labelled radio buttons, none chosen', () => {
    setup({ postId: 10 })
    const dialog = screen.getByRole('dialog', { name: 'Report post' })
    const reasons = within(dialog).getByRole('group', { name: 'Why are you reporting this?' })
    const radios = within(reasons).getAllByRole('radio')
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['spam', 'harassment', 'impersonation', 'other'])
    for (const name of ['Spam', 'Harassment', 'Impersonation', 'Other'])
      expect(within(reasons).getByRole('radio', { name })).not.toBeChecked()
  })

  it('asks for a reason before sending, then sends the post, the reason and the trimmed comment', async () => {
    const { writes, onOpenChange } = setup({ postId: 10 })
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }))
    const group = screen.getByRole('group', { name: 'Why are you reporting this?' })
    expect(group).toHaveAccessibleDescription('Choose a reason')
    expect(screen.getByRole('radio', { name: 'Spam' })).toHaveFocus()
    expect(writes()).toEqual([])

    await userEvent.click(screen.getByRole('radio', { name: 'Harassment' }))
    expect(screen.queryByText('Choose a reason')).not.toBeInTheDocument()
    await userEvent.type(screen.getByRole('textbox', { name: 'Comment (optional)' }), '  keeps replying to me  ')
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }))

    expect(await screen.findByText('Report sent')).toBeInTheDocument()
    expect(writes()).toEqual([
      { call: 'POST /api/reports', body: { postId: 10, reason: 'harassment', comment: 'keeps replying to me' } },
    ])
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))
  })

  it('sends no comment when there is none', async () => {
    const { writes } = setup({ postId: 10 })
    await userEvent.click(screen.getByRole('radio', { name: 'Spam' }))
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }))
    await screen.findByText('Report sent')
    expect(writes()).toEqual([{ call: 'POST /api/reports', body: { postId: 10, reason: 'spam' } }])
  })

  it('counts the comment in characters and refuses one over 1000', () => {
    setup({ postId: 10 })
    const comment = screen.getByRole('textbox', { name: 'Comment (optional)' })
    fireEvent.change(comment, { target: { value: '🙂'.repeat(1000) } })
    expect(screen.getByText('1000/1000')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Send report' })).toBeEnabled()
    fireEvent.change(comment, { target: { value: '🙂'.repeat(1001) } })
    expect(screen.getByText('1001/1000')).toBeInTheDocument()
    expect(comment).toHaveAccessibleDescription(expect.stringContaining('A comment can be at most 1000 characters long'))
    expect(comment).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByRole('button', { name: 'Send report' })).toBeDisabled()
  })

  it('reporting a member offers to block them too, and does both', async () => {
    const { writes } = setup()
    const dialog = screen.getByRole('dialog', { name: 'Report @grace' })
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Impersonation' }))
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Also block @grace' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send report' }))
    expect(await screen.findByText('Report sent')).toBeInTheDocument()
    expect(screen.getByText('You blocked @grace.')).toBeInTheDocument()
    expect(writes()).toEqual([
      { call: 'POST /api/reports', body: { userId: 2, reason: 'impersonation' } },
      { call: 'POST /api/blocks', body: { userId: 2 } },
    ])
  })

  it('does not offer to block when reporting a post', () => {
    setup({ postId: 10 })
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument()
  })

  it("shows the server's refusal (too many reports) and stays open", async () => {
    const { onOpenChange } = setup({
      postId: 10,
      answer: () => json({ message: 'Too many reports. Try again later.' }, 429),
    })
    await userEvent.click(screen.getByRole('radio', { name: 'Other' }))
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }))
    expect(await screen.findByText('Too many reports. Try again later.')).toBeInTheDocument()
    expect(onOpenChange).not.toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Send report' })).toBeEnabled()
  })
})

import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { DeleteAccountSection } from './delete-account-section'
import { ConfirmDeletion } from './confirm-deletion'
import { AccountDeletedNotice } from './account-deleted-notice'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('deleting an account', () => {
  it('asks in a dialog before sending the confirmation e-mail, and sends nothing on Cancel', async () => {
    const fetch = mockFetch(() => json({ message: 'Check your email: we sent you a link to confirm deleting your account.' }))
    renderWithProviders(<DeleteAccountSection />)
    const section = screen.getByRole('region', { name: 'Delete account' })
    await userEvent.click(screen.getByRole('button', { name: 'Delete account' }))
    expect(screen.getByRole('dialog', { name: 'Delete your account?' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(fetch).not.toHaveBeenCalled()

    await userEvent.click(screen.getByRole('button', { name: 'Delete account' }))
    await userEvent.click(screen.getByRole('button', { name: 'Send confirmation e-mail' }))
    expect(await screen.findByRole('status')).toHaveTextContent(/Check your email/)
    expect(section).toContainElement(screen.getByRole('status'))
    expect(requestsOf(fetch)).toEqual([{ call: 'POST /api/account/delete' }])
  })

  it('deletes only when the screen the link opens is confirmed, and says why a link was refused', async () => {
    const fetch = mockFetch(() => json({ message: 'Invalid or expired link' }, 400))
    renderWithProviders(<ConfirmDeletion token="t0ken" />)
    expect(fetch).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid or expired link')
    expect(requestsOf(fetch)).toEqual([{ call: 'POST /api/account/delete/confirm', body: { token: 't0ken' } }])
    expect(screen.getByRole('link', { name: 'Keep my account' })).toHaveAttribute('href', '/settings')
  })

  it('goes to the landing page saying the account was deleted, once, in a status region', async () => {
    mockFetch(() => new Response(null, { status: 204 }))
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, set href(value: string) { assign(value) } })
    renderWithProviders(<ConfirmDeletion token="t0ken" />)
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }))
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/?account=deleted'))
    vi.unstubAllGlobals()

    window.history.replaceState(null, '', '/?account=deleted')
    const { unmount } = renderWithProviders(<AccountDeletedNotice />)
    expect(await screen.findByText('Your account has been deleted.')).toHaveAttribute('role', 'status')
    expect(window.location.search).toBe('')
    unmount()
    renderWithProviders(<AccountDeletedNotice />)
    expect(screen.queryByText('Your account has been deleted.')).not.toBeInTheDocument()
  })
})

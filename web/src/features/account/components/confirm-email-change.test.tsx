import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { ConfirmEmailChange } from './confirm-email-change'

afterEach(() => {
  vi.unstubAllGlobals()
  window.history.replaceState(null, '', '/')
})

function visit(search: string) {
  window.history.replaceState(null, '', `/auth/confirm-email${search}`)
  return renderWithProviders(<ConfirmEmailChange />)
}

describe('the address confirmation screen', () => {
  it('fails at once without a token', () => {
    const fetch = mockFetch(() => json({}))
    visit('')
    expect(screen.getByRole('heading', { name: 'Address not changed' })).toBeInTheDocument()
    expect(screen.getByText('No confirmation token found')).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
  })

  it('sends the token once and says what the address is now', async () => {
    const fetch = mockFetch((url) =>
      url === '/api/auth/email/confirm'
        ? json({ email: 'ada.new@example.com', message: 'Your e-mail address is now ada.new@example.com.' })
        : json(null, 401),
    )
    visit('?token=abc')
    expect(screen.getByRole('heading', { name: 'Confirming...' })).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Address changed' })).toBeInTheDocument()
    expect(screen.getByText('Your e-mail address is now ada.new@example.com.')).toBeInTheDocument()
    const confirms = requestsOf(fetch).filter(({ call }) => call === 'POST /api/auth/email/confirm')
    expect(confirms).toEqual([{ call: 'POST /api/auth/email/confirm', body: { token: 'abc' } }])
    await userEvent.click(screen.getByRole('button', { name: 'Go to Settings' }))
    expect(window.location.pathname).toBe('/settings')
  })

  it("shows the server's reason when the address was taken meanwhile", async () => {
    const taken = 'This address now belongs to another account. Please choose another address.'
    mockFetch(() => json({ message: taken }, 409))
    visit('?token=abc')
    expect(await screen.findByText(taken)).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Address not changed' })).toBeInTheDocument()
  })
})

import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aUser, json, jsonBody, mockFetch, renderWithProviders } from '@/test/test-utils'
import { EmailCard } from './email-card'

afterEach(() => {
  vi.unstubAllGlobals()
})

const SENT = 'Check the inbox of your new address: we sent it a link. Your address changes when you follow it.'

describe('the e-mail address card', () => {
  it('shows the address and sends a link to a new one, saying so', async () => {
    const asked: unknown[] = []
    mockFetch((url, init) => {
      if (url === '/api/auth/email') {
        asked.push(jsonBody(init))
        return json({ message: SENT })
      }
      return json(aUser)
    })
    renderWithProviders(<EmailCard />)
    const region = await screen.findByRole('region', { name: 'E-mail address' })
    await within(region).findByText('ada@example.com')
    await userEvent.type(within(region).getByRole('textbox', { name: 'New e-mail address' }), ' ada.new@example.com ')
    await userEvent.click(within(region).getByRole('button', { name: 'Send confirmation link' }))
    expect(await within(region).findByRole('status')).toHaveTextContent(`ada.new@example.com: ${SENT}`)
    expect(asked).toEqual([{ email: 'ada.new@example.com' }])
    expect(within(region).getByRole('textbox', { name: 'New e-mail address' })).toHaveValue('')
  })

  it("shows the server's reason under the field", async () => {
    mockFetch((url) =>
      url === '/api/auth/email' ? json({ message: 'This is already your e-mail address.' }, 400) : json(aUser),
    )
    renderWithProviders(<EmailCard />)
    const region = await screen.findByRole('region', { name: 'E-mail address' })
    const field = within(region).getByRole('textbox', { name: 'New e-mail address' })
    await userEvent.type(field, 'ada@example.com')
    await userEvent.click(within(region).getByRole('button', { name: 'Send confirmation link' }))
    await within(region).findByText('This is already your e-mail address.')
    expect(field).toHaveAttribute('aria-invalid', 'true')
  })

  it('asks for an address before sending anything', async () => {
    const fetch = mockFetch(() => json(aUser))
    renderWithProviders(<EmailCard />)
    const region = await screen.findByRole('region', { name: 'E-mail address' })
    await userEvent.click(within(region).getByRole('button', { name: 'Send confirmation link' }))
    await within(region).findByText('Please enter your new email address.')
    expect(fetch.mock.calls.map(([url]) => url)).not.toContain('/api/auth/email')
  })
})

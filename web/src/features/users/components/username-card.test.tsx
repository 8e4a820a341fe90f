import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aUser, json, jsonBody, mockFetch, renderWithProviders } from '@/test/test-utils'
import { UsernameCard } from './username-card'

afterEach(() => {
  vi.unstubAllGlobals()
})

function openCard(usernameChangeableAt: string | null, onSave: (body: unknown) => Response = (body) => json({ ...aUser, ...(body as object) })) {
  const saved: unknown[] = []
  mockFetch((url, init) => {
    if (url === '/api/users/profile' && init.method === 'PUT') {
      saved.push(jsonBody(init))
      return onSave(jsonBody(init))
    }
    return json({ ...aUser, usernameChangeableAt })
  })
  renderWithProviders(<UsernameCard />)
  return saved
}

describe('the username card in Settings', () => {
  it('changes the username, keeping the rest of the profile', async () => {
    const saved = openCard(null)
    const region = await screen.findByRole('region', { name: 'Username' })
    const field = await within(region).findByRole('textbox', { name: 'Username' })
    await userEvent.clear(field)
    await userEvent.type(field, 'countess')
    await userEvent.click(within(region).getByRole('button', { name: 'Change username' }))
    await vi.waitFor(() =>
      expect(saved).toEqual([{ username: 'countess', displayName: aUser.displayName, bio: aUser.bio, website: aUser.website }]),
    )
  })

  it('says when the username can next change, and waits till then', async () => {
    openCard('2099-03-04T12:00:00Z')
    const field = await screen.findByRole('textbox', { name: 'Username' })
    expect(field).toBeDisabled()
    expect(screen.getByText(/You can change it again on Mar 4, 2099/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Change username' })).toBeDisabled()
  })

  it("shows the server's refusal at the field and keeps what was typed", async () => {
    openCard(null, () => json({ message: 'That username is taken.' }, 409))
    const field = await screen.findByRole('textbox', { name: 'Username' })
    await userEvent.clear(field)
    await userEvent.type(field, 'grace')
    await userEvent.click(screen.getByRole('button', { name: 'Change username' }))
    expect(await screen.findByText('That username is taken.')).toBeInTheDocument()
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field).toHaveValue('grace')
  })
})

import { fireEvent, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aUser, json, jsonBody, mockFetch, renderWithProviders } from '@/test/test-utils'
import EditProfileDialog from './edit-profile-dialog'

afterEach(() => {
  vi.unstubAllGlobals()
})

function setup(onSave: (body: unknown) => Response = (body) => json({ ...aUser, ...(body as object) })) {
  const bodies: unknown[] = []
  mockFetch((url, init) => {
    if (url === '/api/users/profile' && init.method === 'PUT') {
      const body = jsonBody(init)
      bodies.push(body)
      return onSave(body)
    }
    return json(aUser)
  })
  renderWithProviders(<EditProfileDialog user={{ ...aUser, bio: '', website: '' }} open onOpenChange={() => {}} />)
  return { bodies, save: screen.getByRole('button', { name: 'Save' }) }
}

describe('the Edit Profile form', () => {
  it('counts the bio in characters as the server does and lets an emoji bio reach 160', () => {
    const { save } = setup()
    const bio = screen.getByRole('textbox', { name: 'Bio' })
    fireEvent.change(bio, { target: { value: '🙂'.repeat(160) } })
    expect(bio).toHaveValue('🙂'.repeat(160))
    expect(screen.getByText('160/160')).toBeInTheDocument()
    expect(save).toBeEnabled()
    fireEvent.change(bio, { target: { value: '🙂'.repeat(161) } })
    expect(screen.getByText('Bio can be at most 160 characters long')).toBeInTheDocument()
    expect(save).toBeDisabled()
  })

  it('explains a display name over 50 characters and a website that is not http(s)', () => {
    const { save } = setup()
    const name = screen.getByRole('textbox', { name: 'Display Name' })
    fireEvent.change(name, { target: { value: 'n'.repeat(51) } })
    const nameError = screen.getByText('Display name can be at most 50 characters long')
    expect(name.getAttribute('aria-describedby')).toBe(nameError.id)
    expect(save).toBeDisabled()
    fireEvent.change(name, { target: { value: 'Ada' } })

    const website = screen.getByRole('textbox', { name: 'Website' })
    for (const bad of ['https:alert(1)', 'javascript:alert(1)', 'example.com']) {
      fireEvent.change(website, { target: { value: bad } })
      expect(screen.getByText('Website must be a web address starting with http:// or https://')).toBeInTheDocument()
      expect(save).toBeDisabled()
    }
    fireEvent.change(website, { target: { value: 'https://bank.example@evil.example' } })
    expect(screen.getByText("Website cannot contain a user name or password")).toBeInTheDocument()
    fireEvent.change(website, { target: { value: 'https://ada.dev' } })
    expect(website).not.toHaveAttribute('aria-invalid')
    expect(save).toBeEnabled()
  })

  it("shows the server's message when it refuses the profile", async () => {
    const { save, bodies } = setup(() => json({ message: 'Display name looks like another member' }, 400))
    fireEvent.change(screen.getByRole('textbox', { name: 'Display Name' }), { target: { value: 'Bob' } })
    await userEvent.click(save)
    expect(await screen.findByText('Display name looks like another member')).toBeInTheDocument()
    expect(bodies).toHaveLength(1)
  })
})

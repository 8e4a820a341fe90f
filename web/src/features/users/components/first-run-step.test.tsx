import { fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aUser, json, jsonBody, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { FirstRunStep } from './first-run-step'

afterEach(() => {
  vi.unstubAllGlobals()
})

const newcomer = { ...aUser, username: 'ada_x7', bio: '', website: '', firstRunDone: false }

function setup(onSave: (init: RequestInit) => Response = (init) => json({ ...newcomer, ...(jsonBody(init) as object) })) {
  const fetch = mockFetch((url, init) => {
    if (url === '/api/users/profile' && init.method === 'PUT') return onSave(init)
    if (url === '/api/users/first-run') return new Response(null, { status: 204 })
    return json(newcomer)
  })
  renderWithProviders(<FirstRunStep me={newcomer} />)
  return fetch
}

describe('the first-run step', () => {
  it('starts from the current username and saves the chosen one before marking the step done', async () => {
    const fetch = setup()
    const username = screen.getByRole('textbox', { name: 'Username' })
    expect(username).toHaveValue('ada_x7')
    fireEvent.change(username, { target: { value: 'ada' } })
    fireEvent.change(screen.getByRole('textbox', { name: 'Bio' }), { target: { value: 'Counting engines' } })
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(requestsOf(fetch).map((r) => r.call)).toContain('POST /api/users/first-run'))
    const save = requestsOf(fetch).find((r) => r.call === 'PUT /api/users/profile')
    expect(save?.body).toEqual({ username: 'ada', displayName: 'Ada Lovelace', bio: 'Counting engines', website: '' })
  })

  it('shows a taken username at the field, keeps what was typed and does not mark the step done', async () => {
    const fetch = setup(() => json({ message: 'That username is taken.' }, 409))
    fireEvent.change(screen.getByRole('textbox', { name: 'Username' }), { target: { value: 'grace' } })
    fireEvent.change(screen.getByRole('textbox', { name: 'Bio' }), { target: { value: 'Hello' } })
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    const username = screen.getByRole('textbox', { name: 'Username' })
    expect(await screen.findByText('That username is taken.')).toBeInTheDocument()
    expect(username).toHaveAttribute('aria-invalid', 'true')
    expect(username).toHaveValue('grace')
    expect(screen.getByRole('textbox', { name: 'Bio' })).toHaveValue('Hello')
    expect(requestsOf(fetch).map((r) => r.call)).not.toContain('POST /api/users/first-run')
  })

  it('explains a username the server would refuse before sending it', () => {
    setup()
    fireEvent.change(screen.getByRole('textbox', { name: 'Username' }), { target: { value: 'a b' } })
    expect(screen.getByText('Usernames are 3 to 20 characters: letters, digits and underscores.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled()
  })

  it('marks the step done without saving the profile when skipped', async () => {
    const fetch = setup()
    await userEvent.click(screen.getByRole('button', { name: 'Skip' }))
    await waitFor(() => expect(requestsOf(fetch).map((r) => r.call)).toContain('POST /api/users/first-run'))
    expect(requestsOf(fetch).map((r) => r.call)).not.toContain('PUT /api/users/profile')
  })
})

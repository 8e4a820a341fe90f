import * as React from 'react'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, jsonBody, mockFetch, renderWithProviders } from '@/test/test-utils'
import { LoginDialog } from './login-dialog'

function Harness(props: Omit<React.ComponentProps<typeof LoginDialog>, 'open' | 'onOpenChange'>) {
  const [open, setOpen] = React.useState(true)
  return (
    <>
      <button onClick={() => setOpen(true)}>Open login</button>
      <LoginDialog open={open} onOpenChange={setOpen} {...props} />
    </>
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the login dialog', () => {
  it('starts in sign-up mode with an invite code field and toggles to login mode', async () => {
    renderWithProviders(<Harness />)
    expect(screen.getByRole('dialog', { name: 'Join Murmur' })).toBeInTheDocument()
    expect(screen.getByLabelText('Invite code')).toBeInTheDocument()
    expect(screen.getByText(/invite-only/i)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms')
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy')

    await userEvent.click(screen.getByRole('button', { name: 'Already have an account? Log in' }))
    expect(screen.getByRole('dialog', { name: 'Welcome back' })).toBeInTheDocument()
    expect(screen.queryByLabelText('Invite code')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'New user? Sign up with invite code' })).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'New user? Sign up with invite code' }))
    expect(screen.getByLabelText('Invite code')).toBeInTheDocument()
  })

  it('upper-cases the invite code as it is typed', async () => {
    renderWithProviders(<Harness />)
    await userEvent.type(screen.getByLabelText('Invite code'), 'abc123')
    expect(screen.getByLabelText('Invite code')).toHaveValue('ABC123')
  })

  it('asks for the e-mail and the invite code before sending', async () => {
    const fetch = mockFetch(() => json({ message: 'ok' }))
    renderWithProviders(<Harness />)
    await userEvent.click(screen.getByRole('button', { name: 'Send magic link' }))
    expect(await screen.findByText('Email required')).toBeInTheDocument()
    expect(screen.getByText('Please enter your email address.')).toBeInTheDocument()

    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send magic link' }))
    expect(await screen.findByText('Invite code required')).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
  })

  it('shows the sent state, goes back to the form keeping the mode, and resets on close', async () => {
    let release: () => void = () => {}
    const fetch = mockFetch(
      () => new Promise<Response>((resolve) => (release = () => resolve(json({ message: 'sent' })))),
    )
    renderWithProviders(<Harness />)
    await userEvent.click(screen.getByRole('button', { name: 'Already have an account? Log in' }))
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send magic link' }))
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled()
    release()

    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument()
    expect(screen.getAllByText('ada@example.com').length).toBeGreaterThan(0)
    expect(screen.getByText(/expires in 15 minutes/)).toBeInTheDocument()
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/auth/request-login-link')
    expect(await screen.findByText("If an account exists, we've sent you a magic link.")).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Back to login' }))
    expect(screen.getByLabelText('Email')).toHaveValue('')
    // still in login mode: only the e-mail was cleared
    expect(screen.queryByLabelText('Invite code')).not.toBeInTheDocument()

    await userEvent.type(screen.getByLabelText('Email'), 'x@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    await userEvent.click(screen.getByRole('button', { name: 'Open login' }))
    expect(screen.getByLabelText('Email')).toHaveValue('')
    expect(screen.getByLabelText('Invite code')).toHaveValue('')
  })

  it('sends sign-up requests with the invite code and shows the server message on failure', async () => {
    const fetch = mockFetch(() => json({ message: 'Invalid or expired invite code' }, 400))
    renderWithProviders(<Harness />)
    await userEvent.type(screen.getByLabelText('Invite code'), 'abcdefghijkl')
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send magic link' }))
    // Said beside the code, where it is fixed.
    expect(await screen.findByLabelText('Invite code')).toHaveAccessibleDescription(/Invalid or expired invite code/)
    expect(screen.getByLabelText('Invite code')).toHaveAttribute('aria-invalid', 'true')
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/auth/request-magic-link')
    expect(jsonBody(fetch.mock.calls[0]?.[1])).toEqual({ email: 'ada@example.com', inviteCode: 'ABCDEFGHIJKL' })
    expect(screen.getByRole('button', { name: 'Send magic link' })).toBeEnabled()
    await userEvent.type(screen.getByLabelText('Invite code'), 'M')
    expect(screen.getByLabelText('Invite code')).not.toHaveAttribute('aria-invalid')
  })

  it("opens as asked: sign-up with an invite link's code, or login", () => {
    const { unmount } = renderWithProviders(<Harness inviteCode="ABCDEFGHIJKL" />)
    expect(screen.getByRole('dialog', { name: 'Join Murmur' })).toBeInTheDocument()
    expect(screen.getByLabelText('Invite code')).toHaveValue('ABCDEFGHIJKL')
    unmount()
    renderWithProviders(<Harness mode="login" />)
    expect(screen.getByRole('dialog', { name: 'Welcome back' })).toBeInTheDocument()
    expect(screen.queryByLabelText('Invite code')).not.toBeInTheDocument()
  })

  it('asks for a login link that leads on to the page the member came for', async () => {
    const fetch = mockFetch(() => json({ message: 'sent' }))
    renderWithProviders(<Harness mode="login" returnTo="/post/42" />)
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Send magic link' }))
    await screen.findByRole('heading', { name: 'Check your email' })
    expect(jsonBody(fetch.mock.calls[0]?.[1])).toEqual({ email: 'ada@example.com', next: '/post/42' })
  })
})

import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DRAFT_KEY_PREFIX } from '@/lib/member-storage'
import { json, mockFetch, renderWithProviders } from '@/test/test-utils'
import { getMe } from './get-me'
import { useLogout } from './logout'

const DRAFT = `${DRAFT_KEY_PREFIX}1:home`

function LogOut() {
  const logout = useLogout()
  return (
    <button type="button" onClick={() => logout.mutate()}>
      Log out
    </button>
  )
}

afterEach(() => vi.unstubAllGlobals())

describe("the member's drafts after their session ends", () => {
  it('are gone once they log out', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, set href(value: string) { assign(value) } })
    mockFetch((url) => (url === '/api/auth/logout' ? new Response(null, { status: 204 }) : json({}, 404)))
    localStorage.setItem(DRAFT, '{"content":"A secret half-thought"}')
    renderWithProviders(<LogOut />)

    await userEvent.click(screen.getByRole('button', { name: 'Log out' }))

    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'))
    expect(localStorage.getItem(DRAFT)).toBeNull()
  })

  it('stay while logging out fails (the session goes on)', async () => {
    mockFetch(() => json({ message: 'Internal server error' }, 500))
    localStorage.setItem(DRAFT, '{"content":"Still mine"}')
    renderWithProviders(<LogOut />)

    await userEvent.click(screen.getByRole('button', { name: 'Log out' }))

    expect(await screen.findByText('Failed to log out')).toBeInTheDocument()
    expect(localStorage.getItem(DRAFT)).not.toBeNull()
  })

  it('are gone when the app finds nobody signed in (a session that ended elsewhere)', async () => {
    mockFetch(() => json({ message: 'Unauthorized' }, 401))
    localStorage.setItem(DRAFT, '{"content":"A secret half-thought"}')

    expect(await getMe()).toBeNull()

    expect(localStorage.getItem(DRAFT)).toBeNull()
  })
})

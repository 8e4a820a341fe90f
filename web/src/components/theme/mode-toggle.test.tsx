import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/test-utils'
import { ModeToggle } from './mode-toggle'

describe('the theme toggle (its menu loads after the first screen)', () => {
  it('is a button that opens a menu before the menu has loaded, and a press opens it at once', async () => {
    renderWithProviders(<ModeToggle />)
    const toggle = screen.getByRole('button', { name: 'Toggle theme' })
    expect(toggle).toHaveAttribute('aria-haspopup', 'menu')
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(screen.queryByRole('menu')).not.toBeInTheDocument()

    // Pressed before the browser was idle: the menu's code loads and the menu opens.
    await userEvent.click(toggle)
    expect(await screen.findByRole('menuitem', { name: 'Dark' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('menuitem', { name: 'Dark' }))
    expect(document.documentElement).toHaveClass('dark')
  })

  it('becomes the menu itself once the browser is idle, opened by a press as any menu', async () => {
    renderWithProviders(<ModeToggle />)
    // The real trigger replaces the stand-in (Radix's gives it an id and a state).
    await screen.findByRole('button', { name: 'Toggle theme', expanded: false })
    await expect.poll(() => screen.getByRole('button', { name: 'Toggle theme' }).getAttribute('data-state')).toBe('closed')
    await userEvent.click(screen.getByRole('button', { name: 'Toggle theme' }))
    expect(await screen.findByRole('menuitem', { name: 'Light' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('menuitem', { name: 'Light' }))
    expect(document.documentElement).toHaveClass('light')
  })
})

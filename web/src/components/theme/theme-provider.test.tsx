import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { THEME_STORAGE_KEY, ThemeProvider, useTheme } from './theme-provider'

function ThemeSwitch() {
  const { theme, setTheme } = useTheme()
  return (
    <div>
      <p>Theme is {theme}</p>
      <button onClick={() => setTheme('dark')}>Dark</button>
      <button onClick={() => setTheme('light')}>Light</button>
      <button onClick={() => setTheme('system')}>System</button>
    </div>
  )
}

beforeEach(() => {
  document.documentElement.className = ''
})

describe('the theme provider', () => {
  it('defaults to the system theme', () => {
    render(<ThemeProvider><ThemeSwitch /></ThemeProvider>)
    expect(screen.getByText('Theme is system')).toBeInTheDocument()
    expect(document.documentElement.classList.contains('light')).toBe(true)
  })

  it('stores the choice under vite-ui-theme and applies it to the page', async () => {
    render(<ThemeProvider><ThemeSwitch /></ThemeProvider>)
    await userEvent.click(screen.getByRole('button', { name: 'Dark' }))
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark')
    expect(document.documentElement.classList.contains('dark')).toBe(true)
    expect(document.documentElement.classList.contains('light')).toBe(false)

    await userEvent.click(screen.getByRole('button', { name: 'Light' }))
    expect(localStorage.getItem('vite-ui-theme')).toBe('light')
    expect(document.documentElement.classList.contains('light')).toBe(true)
  })

  it('starts from the stored theme', () => {
    localStorage.setItem('vite-ui-theme', 'dark')
    render(<ThemeProvider><ThemeSwitch /></ThemeProvider>)
    expect(screen.getByText('Theme is dark')).toBeInTheDocument()
    expect(document.documentElement.classList.contains('dark')).toBe(true)
  })

  it('ignores a stored value that is not a theme', () => {
    localStorage.setItem('vite-ui-theme', 'purple')
    render(<ThemeProvider><ThemeSwitch /></ThemeProvider>)
    expect(screen.getByText('Theme is system')).toBeInTheDocument()
  })
})

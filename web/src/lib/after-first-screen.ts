import * as React from 'react'

/**
 * False until the browser has drawn the first screen and has a moment to spare, then true.
 * For code the first screen does not need (menus, dialogs): it loads then, off the first
 * screen's critical path, and is there by the time someone reaches for it. Always false where
 * nothing is drawn (the build's static picture of the shell, prepaint.tsx).
 */
export function useAfterFirstScreen(): boolean {
  const [after, setAfter] = React.useState(false)
  React.useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => setAfter(true), { timeout: 2000 })
      return () => window.cancelIdleCallback(id)
    }
    const id = window.setTimeout(() => setAfter(true), 200)
    return () => window.clearTimeout(id)
  }, [])
  return after
}

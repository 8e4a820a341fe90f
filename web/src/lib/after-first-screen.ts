import * as React from 'react'

/**
 * False until the first screen is on the glass: the page has loaded (the window's `load`), a
 * frame has been painted since, and the browser has a moment to spare; true from then on. For
 * code the first screen does not need (menus, dialogs): it loads then, off the first screen's
 * critical path (requests started before the largest paint hold it up, for Lighthouse and on
 * a slow network alike), and is there by the time someone reaches for it. Always false where
 * nothing is drawn (the build's static picture of the shell, prepaint.tsx).
 */
export function useAfterFirstScreen(): boolean {
  const [after, setAfter] = React.useState(false)
  React.useEffect(() => {
    let cancelled = false
    const done = () => {
      if (!cancelled) setAfter(true)
    }
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(done, { timeout: 2000 })
      else window.setTimeout(done, 200)
    }
    // The frame after next: the one in which the first screen was painted has gone by.
    const afterPaint = () => window.requestAnimationFrame(() => window.requestAnimationFrame(whenIdle))
    if (document.readyState === 'complete') afterPaint()
    else window.addEventListener('load', afterPaint, { once: true })
    return () => {
      cancelled = true
      window.removeEventListener('load', afterPaint)
    }
  }, [])
  return after
}

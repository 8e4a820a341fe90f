import * as React from 'react'

/** Whether the person asked for less motion; follows the setting as it changes. */
export function usePrefersReducedMotion(): boolean {
  const query = '(prefers-reduced-motion: reduce)'
  const [reduced, setReduced] = React.useState(
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
  )
  React.useEffect(() => {
    if (typeof window.matchMedia !== 'function') return
    const list = window.matchMedia(query)
    const onChange = () => setReduced(list.matches)
    list.addEventListener?.('change', onChange)
    return () => list.removeEventListener?.('change', onChange)
  }, [])
  return reduced
}

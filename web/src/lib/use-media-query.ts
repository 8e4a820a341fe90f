import * as React from 'react'

/** Whether the CSS media query `query` matches now; follows it as it changes. */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = React.useState(() => typeof window.matchMedia === 'function' && window.matchMedia(query).matches)
  React.useEffect(() => {
    if (typeof window.matchMedia !== 'function') return
    const list = window.matchMedia(query)
    const onChange = () => setMatches(list.matches)
    onChange()
    list.addEventListener?.('change', onChange)
    return () => list.removeEventListener?.('change', onChange)
  }, [query])
  return matches
}

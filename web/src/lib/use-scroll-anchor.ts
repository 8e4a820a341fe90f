import * as React from 'react'

interface Anchor {
  element: Element
  top: number
}

/** The first child of `list` not scrolled out above the viewport, and where it is. */
function firstVisibleChild(list: Element): Anchor | null {
  for (const element of list.children) {
    const { top, bottom } = element.getBoundingClientRect()
    if (bottom > 0) return { element, top }
  }
  return null
}

/**
 * Keeps the reader's place in a list that grows at the top: when `items` change, the first
 * visible child is put back where it was. At the top of the page nothing is kept, so what
 * arrives is seen. (Browsers that anchor scrolling themselves have already done it: then there
 * is nothing left to move.)
 */
export function useScrollAnchor(listRef: React.RefObject<Element | null>, items: unknown) {
  const anchor = React.useRef<Anchor | null>(null)
  const remember = React.useCallback(() => {
    const list = listRef.current
    anchor.current = list && window.scrollY > 0 ? firstVisibleChild(list) : null
  }, [listRef])

  React.useEffect(() => {
    window.addEventListener('scroll', remember, { passive: true })
    return () => window.removeEventListener('scroll', remember)
  }, [remember])

  React.useLayoutEffect(() => {
    const kept = anchor.current
    if (kept?.element.isConnected) {
      const moved = kept.element.getBoundingClientRect().top - kept.top
      if (moved !== 0) window.scrollBy(0, moved)
    }
    remember()
  }, [items, remember])
}

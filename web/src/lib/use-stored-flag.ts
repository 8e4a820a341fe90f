// A yes/no choice of this browser, kept in localStorage as the theme is: it changes only what
// this browser shows, nothing the server needs to know.
import * as React from 'react'

/** Where storage is refused (private mode), a choice lasts as long as the page. */
const inThisPage = new Map<string, boolean>()

const changedEvent = (key: string) => `${key}-changed`

function read(key: string, fallback: boolean): boolean {
  try {
    const stored = localStorage.getItem(key)
    return stored === null ? fallback : stored !== 'off'
  } catch {
    return inThisPage.get(key) ?? fallback
  }
}

/** The flag kept under `key` ('off', else on; `fallback` until chosen), and the way to set it; every tab follows a change. */
export function useStoredFlag(key: string, fallback: boolean): [boolean, (on: boolean) => void] {
  const subscribe = React.useCallback(
    (onChange: () => void) => {
      // `storage` tells other tabs; the custom event tells this one.
      window.addEventListener('storage', onChange)
      window.addEventListener(changedEvent(key), onChange)
      return () => {
        window.removeEventListener('storage', onChange)
        window.removeEventListener(changedEvent(key), onChange)
      }
    },
    [key],
  )
  const value = React.useSyncExternalStore(
    subscribe,
    () => read(key, fallback),
    () => fallback,
  )
  const set = React.useCallback(
    (on: boolean) => {
      try {
        localStorage.setItem(key, on ? 'on' : 'off')
      } catch {
        inThisPage.set(key, on)
      }
      window.dispatchEvent(new Event(changedEvent(key)))
    },
    [key],
  )
  return [value, set]
}

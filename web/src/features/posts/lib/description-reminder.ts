// "Remind me to add image descriptions": a preference of this browser, kept in localStorage as
// the theme is (it changes only what the composer asks, nothing the server needs to know).
import * as React from 'react'

export const DESCRIPTION_REMINDER_KEY = 'murmur-image-description-reminder'
const CHANGED = 'murmur-image-description-reminder-changed'

function read(): boolean {
  try {
    return localStorage.getItem(DESCRIPTION_REMINDER_KEY) !== 'off'
  } catch {
    return true
  }
}

function subscribe(onChange: () => void) {
  // `storage` tells other tabs; the custom event tells this one.
  window.addEventListener('storage', onChange)
  window.addEventListener(CHANGED, onChange)
  return () => {
    window.removeEventListener('storage', onChange)
    window.removeEventListener(CHANGED, onChange)
  }
}

/** Whether the composer asks before posting an image without a description (on unless turned off). */
export function useDescriptionReminder(): [boolean, (on: boolean) => void] {
  const on = React.useSyncExternalStore(subscribe, read, () => true)
  const set = React.useCallback((next: boolean) => {
    try {
      localStorage.setItem(DESCRIPTION_REMINDER_KEY, next ? 'on' : 'off')
    } catch {
      // Storage refused (private mode): the setting lasts as long as the page.
    }
    window.dispatchEvent(new Event(CHANGED))
  }, [])
  return [on, set]
}

// "Not now" on the suggestion to turn on notifications: remembered in this browser, for good.
import * as React from 'react'

export const SUGGESTION_DISMISSED_KEY = 'murmur-push-suggestion-dismissed'
const CHANGED = 'murmur-push-suggestion-changed'
/** Where storage is refused (private mode), "Not now" lasts as long as the page. */
let dismissedInThisPage = false

function read(): boolean {
  try {
    return localStorage.getItem(SUGGESTION_DISMISSED_KEY) === 'yes'
  } catch {
    return dismissedInThisPage
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

/** Whether the member said "Not now", and the way to say it. */
export function useSuggestionDismissed(): [boolean, () => void] {
  const dismissed = React.useSyncExternalStore(subscribe, read, () => true)
  const dismiss = React.useCallback(() => {
    try {
      localStorage.setItem(SUGGESTION_DISMISSED_KEY, 'yes')
    } catch {
      dismissedInThisPage = true
    }
    window.dispatchEvent(new Event(CHANGED))
  }, [])
  return [dismissed, dismiss]
}

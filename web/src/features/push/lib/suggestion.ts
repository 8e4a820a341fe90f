// "Not now" on the suggestion to turn on notifications: remembered in this browser, for good
// (lib/use-stored-flag).
import { useStoredFlag } from '@/lib/use-stored-flag'

export const SUGGESTION_DISMISSED_KEY = 'murmur-push-suggestion-dismissed'

/** Whether the member said "Not now", and the way to say it. */
export function useSuggestionDismissed(): [boolean, () => void] {
  const [dismissed, setDismissed] = useStoredFlag(SUGGESTION_DISMISSED_KEY, false)
  return [dismissed, () => setDismissed(true)]
}

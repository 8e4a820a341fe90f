import { ApiError } from '@/lib/api-client'

/** The browser's name for a failure (`DOMException`), if it has one. */
function errorName(error: unknown): string | undefined {
  return error instanceof Error || error instanceof DOMException ? error.name : undefined
}

/** Why pushes could not be turned on for this device, in a sentence the member can act on. */
export function pushFailure(error: unknown): string {
  if (error instanceof ApiError) {
    const reason = error.status < 500 ? error.serverMessage : undefined
    return reason
      ? `The server refused this device: ${reason}`
      : 'The server could not save this device for notifications. Please try again later.'
  }
  switch (errorName(error)) {
    case 'NotAllowedError':
      return 'Notifications are blocked for Murmur in this browser.'
    // What browsers answer without a push service to subscribe with (Chromium without Google's
    // services, some privacy-minded browsers), and the wait for one that does not answer.
    case 'AbortError':
    case 'NotSupportedError':
    case 'InvalidStateError':
    case 'TimeoutError':
      return "This browser has no push service it can reach, so it can't get notifications from Murmur."
    case 'TypeError':
      return "Murmur's server could not be reached. Check your connection."
    default:
      return 'This browser could not turn on notifications for Murmur.'
  }
}

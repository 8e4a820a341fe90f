import { messageOf } from '@/lib/api-client'

/** What a passkey ceremony was for, so a failure names it. */
export type PasskeyCeremony = 'sign-in' | 'add'

/** The browser's name for a WebAuthn failure (`DOMException` or @simplewebauthn's `WebAuthnError`). */
function errorName(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('name' in error)) return undefined
  return typeof error.name === 'string' ? error.name : undefined
}

/** True when the person (or the page) stopped the ceremony: nothing went wrong, nothing to report loudly. */
export function isPasskeyCancelled(error: unknown): boolean {
  return errorName(error) === 'AbortError'
}

/**
 * A clear sentence for every way a passkey ceremony fails: cancelled in the browser's dialog
 * (NotAllowedError, which browsers also give for a timeout), a passkey this device already holds,
 * a page on the wrong address, an unsupported browser, and the server's own refusals (unknown
 * passkey, expired ceremony, another origin), which come with their message.
 */
export function passkeyFailure(error: unknown, ceremony: PasskeyCeremony): string {
  switch (errorName(error)) {
    case 'NotAllowedError':
      return ceremony === 'add'
        ? 'Adding the passkey was cancelled or timed out.'
        : 'Signing in with a passkey was cancelled or timed out.'
    case 'AbortError':
      return 'The passkey request was stopped.'
    case 'InvalidStateError':
      return ceremony === 'add'
        ? 'This device already has a passkey for your account.'
        : 'This device could not use its passkey. Please try again.'
    case 'SecurityError':
      return "Passkeys can't be used on this site's address."
    case 'NotSupportedError':
      return "This browser or device can't use passkeys."
    default:
      return messageOf(
        error,
        ceremony === 'add' ? 'Adding the passkey failed. Please try again.' : 'Signing in with a passkey failed. Please try again.',
      )
  }
}

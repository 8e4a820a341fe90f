import { browserSupportsWebAuthn } from '@simplewebauthn/browser'

/**
 * True when this page can use passkeys: the browser has WebAuthn and the page is reached at a
 * domain name. Browsers refuse an IP address as a passkey's site (and so does the server), so
 * an instance reached at one offers no passkeys rather than a button that always fails.
 */
export function passkeysWorkHere(hostname = window.location.hostname): boolean {
  const isIpAddress = /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.includes(':') || hostname.startsWith('[')
  return !isIpAddress && hostname !== '' && browserSupportsWebAuthn()
}

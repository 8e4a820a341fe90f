import { browserSupportsWebAuthn } from '@simplewebauthn/browser'

export const NO_DOMAIN = 'Passkeys need the instance to be reached by a domain name, not an IP address.'
export const NO_WEBAUTHN = "This browser can't use passkeys."

/**
 * Why this page cannot use passkeys, or null when it can. Browsers refuse an IP address as a
 * passkey's site (and so does the server), so an instance reached at one says so rather than
 * offering a button that always fails; a browser without WebAuthn has none to offer.
 */
export function whyNoPasskeys(hostname = window.location.hostname): string | null {
  const isIpAddress = /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.includes(':') || hostname.startsWith('[')
  if (isIpAddress || hostname === '') return NO_DOMAIN
  return browserSupportsWebAuthn() ? null : NO_WEBAUTHN
}

/** True when this page can use passkeys: the browser has WebAuthn and the page is reached at a domain name. */
export function passkeysWorkHere(hostname = window.location.hostname): boolean {
  return whyNoPasskeys(hostname) === null
}

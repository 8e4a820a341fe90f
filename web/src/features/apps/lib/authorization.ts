/** An app's authorization request, from the query of /oauth/authorize as the app sent it. */
export interface AuthorizationParams {
  clientId: string
  redirectUri?: string
  scope?: string
  state?: string
  codeChallenge?: string
  codeChallengeMethod?: string
}

/** The request in the page's query, or null when it names no app. */
export function authorizationParams(search: string): AuthorizationParams | null {
  const query = new URLSearchParams(search)
  const clientId = query.get('client_id')
  if (!clientId || query.get('response_type') !== 'code') return null
  const optional = (name: string) => query.get(name) ?? undefined
  return {
    clientId,
    redirectUri: optional('redirect_uri'),
    scope: optional('scope'),
    state: optional('state'),
    codeChallenge: optional('code_challenge'),
    codeChallengeMethod: optional('code_challenge_method'),
  }
}

/** The redirect URI of apps that show the code to copy rather than take the browser back. */
export const OUT_OF_BAND = 'urn:ietf:wg:oauth:2.0:oob'

/**
 * Where a refused request sends the member back to the app: its (checked) redirect URI with
 * OAuth's `error=invalid_scope` and the app's `state`; null for an app without one (out of band).
 */
export function scopeRefusalUrl(redirectUri: string, state?: string): string | null {
  if (redirectUri === OUT_OF_BAND) return null
  try {
    const url = new URL(redirectUri)
    url.searchParams.set('error', 'invalid_scope')
    if (state) url.searchParams.set('state', state)
    return url.toString()
  } catch {
    return null
  }
}

/** Scopes as a sentence names them: `a`, `a and b`, `a, b and c`. */
export function scopesInWords(scopes: string[]): string {
  if (scopes.length < 2) return scopes.join('')
  return `${scopes.slice(0, -1).join(', ')} and ${scopes[scopes.length - 1]}`
}

const PENDING_KEY = 'murmur.pendingAuthorization'
/** As long as an e-mailed sign-in link lives. */
const PENDING_FOR_MS = 15 * 60 * 1000

/** A visitor signs in by an e-mailed link before consenting: remember where they were. */
export function rememberPendingAuthorization(url: string, now = Date.now()) {
  try {
    localStorage.setItem(PENDING_KEY, JSON.stringify({ url, until: now + PENDING_FOR_MS }))
  } catch {
    // Storage refused (private mode): the member opens the app's sign-in again after logging in.
  }
}

/** The consent page to go back to after signing in, once: null when none is pending. */
export function takePendingAuthorization(now = Date.now()): string | null {
  try {
    const raw = localStorage.getItem(PENDING_KEY)
    localStorage.removeItem(PENDING_KEY)
    if (!raw) return null
    const pending = JSON.parse(raw) as { url?: unknown; until?: unknown }
    const url = typeof pending.url === 'string' ? pending.url : null
    const fresh = typeof pending.until === 'number' && pending.until > now
    // Only this page of this site: never an address another page could plant.
    return url && fresh && url.startsWith('/oauth/authorize?') ? url : null
  } catch {
    return null
  }
}

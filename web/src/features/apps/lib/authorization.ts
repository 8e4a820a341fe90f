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

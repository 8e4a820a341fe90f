import type { MemberSession } from '../api/get-sessions'

const PHONES = new Set(['iOS', 'iPadOS', 'Android'])

/** "Firefox 128 on Linux", as far as the session's user agent says. */
export function deviceName(session: Pick<MemberSession, 'browser' | 'os'>): string {
  if (session.browser && session.os) return `${session.browser} on ${session.os}`
  if (session.browser) return session.browser
  if (session.os) return `A browser on ${session.os}`
  return 'Unknown browser'
}

/** Phones and tablets get a phone's icon. */
export function isHandheld(session: Pick<MemberSession, 'os'>): boolean {
  return session.os !== null && PHONES.has(session.os)
}

/** How precisely the server keeps a session's last use (it writes it at most every 5 minutes). */
const LAST_USE_PRECISION_MS = 5 * 60_000

/** "Last active" to the precision the server keeps it. */
export function lastActive(session: Pick<MemberSession, 'current' | 'lastUsedAt'>, relative: (iso: string) => string, now = Date.now()): string {
  if (session.current) return 'Active now'
  if (now - new Date(session.lastUsedAt).getTime() < LAST_USE_PRECISION_MS) return 'Last active in the past few minutes'
  return `Last active ${relative(session.lastUsedAt)}`
}

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

/** "Last seen" to the precision the server keeps it (written at most once an hour). */
export function lastSeen(session: Pick<MemberSession, 'current' | 'lastSeenAt'>, relative: (iso: string) => string, now = Date.now()): string {
  if (session.current) return 'Active now'
  if (now - new Date(session.lastSeenAt).getTime() < 3600_000) return 'Last seen within the past hour'
  return `Last seen ${relative(session.lastSeenAt)}`
}

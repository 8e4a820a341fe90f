import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { accountKeys } from '@/lib/query-keys'

/** One of the member's live sessions (GET /api/auth/sessions). */
export interface MemberSession {
  /** The session's public id: names it to end it, and is no credential. */
  id: string
  /** The session of this browser. */
  current: boolean
  userAgent: string | null
  /** "Firefox 128", when the user agent says. */
  browser: string | null
  /** "Linux", "iOS", when the user agent says. */
  os: string | null
  createdAt: string
  /** Its last use, written at most every 5 minutes by the server: right to within 5 minutes. */
  lastUsedAt: string
  /** Where it was last used, roughly: the network (IPv4 /24 or IPv6 /48, "203.0.113.0/24"); null when unknown. */
  network: string | null
  /** How it was signed in: an e-mailed link or a passkey. */
  signedInWith: 'link' | 'passkey'
}

/** This session first, then the most recently used. */
export const getSessions = () => api.get<MemberSession[]>('/api/auth/sessions')

export const sessionsQueryOptions = () => queryOptions({ queryKey: accountKeys.sessions(), queryFn: getSessions })

export function useSessions() {
  return useQuery(sessionsQueryOptions())
}

import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { accountKeys } from './keys'

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
  /** Written at most once an hour by the server: right to within an hour. */
  lastSeenAt: string
}

/** This session first, then the most recently used. */
export const getSessions = () => api.get<MemberSession[]>('/api/auth/sessions')

export const sessionsQueryOptions = () => queryOptions({ queryKey: accountKeys.sessions(), queryFn: getSessions })

export function useSessions() {
  return useQuery(sessionsQueryOptions())
}

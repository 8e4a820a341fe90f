import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, isUnauthorized } from '@/lib/api-client'
import { forgetMemberStorage } from '@/lib/member-storage'
import type { User } from '@/lib/types'
import { authKeys } from '@/lib/query-keys'

/**
 * The current user, or null when nobody is logged in (401 means "no user", not an error). Nobody
 * signed in here: a session that ended meanwhile leaves nothing of its member in the browser.
 */
export async function getMe(): Promise<User | null> {
  try {
    return await api.get<User>('/api/auth/me')
  } catch (error) {
    if (!isUnauthorized(error)) throw error
    forgetMemberStorage()
    return null
  }
}

export const meQueryOptions = () => queryOptions({ queryKey: authKeys.me(), queryFn: getMe })

export function useMe() {
  return useQuery(meQueryOptions())
}

/** The member's role (only `/api/auth/me` says it); undefined for a visitor. */
export function useRole(): User['role'] {
  return useMe().data?.role
}

/** Moderators and admins see the reports queue and act on members. */
export function canModerate(role: User['role']): boolean {
  return role === 'moderator' || role === 'admin'
}

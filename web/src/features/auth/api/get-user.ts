import { useMe } from './get-me'

/**
 * The logged-in member for the member shell and its screens: the one cached `/api/auth/me`
 * answer (with role, first-run flag and invite allowance), null without a session.
 */
export function useCurrentUser() {
  return useMe()
}

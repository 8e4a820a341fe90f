import type { QueryClient } from '@tanstack/react-query'
import type { Profile } from '@/lib/types'
import { authKeys, followKeys, notificationKeys, postKeys, userKeys, safetyKeys } from '@/lib/query-keys'

/** The member a block, mute or report is about. */
export interface MemberRef {
  id: number
  username: string
}

/** Where the viewer stands with the member, as the menu's items need it. */
export interface MemberRelation {
  isMuting: boolean
  isBlocking: boolean
}

/**
 * After a block, mute or their undoing: the member's profile says so at once, and every list
 * they may appear in (posts, notifications, profiles, the settings lists) is asked again. A
 * block or unblock also changes follows and so the member's own counts.
 */
export function memberChanged(
  queryClient: QueryClient,
  member: MemberRef,
  change: Partial<Pick<Profile, 'isBlocking' | 'isMuting' | 'mutedUntil'>>,
) {
  queryClient.setQueryData<Profile>(userKeys.profile(member.username), (profile) => profile && { ...profile, ...change })
  const keys: (readonly string[])[] = [userKeys.all, postKeys.all, notificationKeys.all, safetyKeys.all]
  if ('isBlocking' in change) keys.push(followKeys.all, authKeys.all)
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey })
}

export const USERS_ROOT = 'users'
export const userKeys = {
  all: [USERS_ROOT] as const,
  profile: (username: string) => [USERS_ROOT, 'profile', username] as const,
  suggested: () => [USERS_ROOT, 'suggested'] as const,
  search: (term: string) => [USERS_ROOT, 'search', term] as const,
  starterPack: () => [USERS_ROOT, 'starter-pack'] as const,
  followList: (username: string, list: FollowList) => [USERS_ROOT, list, username] as const,
}

/** The two lists of members a profile's counts open. */
export type FollowList = 'followers' | 'following'

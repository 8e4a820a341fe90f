export const USERS_ROOT = 'users'
export const userKeys = {
  all: [USERS_ROOT] as const,
  profile: (username: string) => [USERS_ROOT, 'profile', username] as const,
  suggested: () => [USERS_ROOT, 'suggested'] as const,
  search: (term: string) => [USERS_ROOT, 'search', term] as const,
}

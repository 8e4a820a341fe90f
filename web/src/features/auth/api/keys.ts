export const AUTH_ROOT = 'auth'
export const authKeys = {
  all: [AUTH_ROOT] as const,
  me: () => [AUTH_ROOT, 'me'] as const,
  user: () => [AUTH_ROOT, 'user'] as const,
  /** The logout mutation: while it runs, the tab is leaving by its own path. */
  logout: () => [AUTH_ROOT, 'logout'] as const,
}

export const AUTH_ROOT = 'auth'
export const authKeys = {
  all: [AUTH_ROOT] as const,
  me: () => [AUTH_ROOT, 'me'] as const,
  user: () => [AUTH_ROOT, 'user'] as const,
}

export const INVITES_ROOT = 'invites'
export const inviteKeys = {
  all: [INVITES_ROOT] as const,
  list: () => [INVITES_ROOT, 'list'] as const,
}

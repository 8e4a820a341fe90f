export const MODERATION_ROOT = 'moderation'
export const moderationKeys = {
  all: [MODERATION_ROOT] as const,
  reports: () => [MODERATION_ROOT, 'reports'] as const,
  log: () => [MODERATION_ROOT, 'log'] as const,
  inviteTree: (memberId: number) => [MODERATION_ROOT, 'invite-tree', memberId] as const,
}

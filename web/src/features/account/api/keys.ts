export const ACCOUNT_ROOT = 'account'
export const accountKeys = {
  all: [ACCOUNT_ROOT] as const,
  /** The member's live sessions. */
  sessions: () => [ACCOUNT_ROOT, 'sessions'] as const,
}

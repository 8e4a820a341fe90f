export const ACCOUNT_ROOT = 'account'
export const accountKeys = {
  all: [ACCOUNT_ROOT] as const,
  /** The member's live sessions. */
  sessions: () => [ACCOUNT_ROOT, 'sessions'] as const,
  /** Asking for the e-mail that confirms deleting the account. */
  requestDeletion: () => [ACCOUNT_ROOT, 'request-deletion'] as const,
  /** Deleting the account with the e-mailed link's token. */
  confirmDeletion: () => [ACCOUNT_ROOT, 'confirm-deletion'] as const,
}

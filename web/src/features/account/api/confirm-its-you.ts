import { useMutation } from '@tanstack/react-query'
import { ApiError, api } from '@/lib/api-client'
import { askForPasskey, beginPasskeySignIn } from '@/features/auth'

/**
 * Adding a passkey needs a sign-in within the last few minutes; an older session is refused
 * (403) and the member confirms it's them first, with a passkey or an e-mailed link.
 */
export function needsRecentSignIn(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403
}

/**
 * Confirms this session with one of the member's passkeys: a sign-in's ceremony, answered by
 * the browser, checked by the server, which keeps this session (no new one) and counts it as
 * signed in now.
 */
export async function confirmWithPasskey(): Promise<void> {
  const begun = await beginPasskeySignIn()
  const credential = await askForPasskey(begun, false)
  await api.post<void>('/api/auth/passkeys/reauthenticate', { ceremony: begun.ceremony, credential })
}

export function useConfirmWithPasskey() {
  return useMutation({ mutationFn: confirmWithPasskey })
}

/** E-mails the member a link that confirms this session (`/auth/reauthenticate?token=…`). */
export const requestConfirmationLink = () => api.post<{ message: string }>('/api/auth/reauthenticate/request-link')

export function useRequestConfirmationLink() {
  return useMutation({ mutationFn: requestConfirmationLink })
}

/** Uses the e-mailed link's token: this browser's session counts as signed in now. */
export const confirmWithLink = (token: string) => api.post<void>('/api/auth/reauthenticate/verify', { token })

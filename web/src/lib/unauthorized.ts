import { toast } from '@/components/ui/use-toast'
import { isUnauthorized } from './api-client'
import { forgetMemberStorage } from './member-storage'

export const LOGIN_REDIRECT_MS = 500

/**
 * Spec §8: say the member is logged out and go to /api/login (the landing page) after 500 ms.
 * Their session ended, so what this browser kept for them (drafts) goes at once.
 */
export function sendToLogin() {
  forgetMemberStorage()
  toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' })
  setTimeout(() => {
    window.location.href = '/api/login'
  }, LOGIN_REDIRECT_MS)
}

/** On 401, `sendToLogin`. Returns true when it handled the error. */
export function handleUnauthorized(error: unknown): boolean {
  if (!isUnauthorized(error)) return false
  sendToLogin()
  return true
}

import { toast } from '@/components/ui/use-toast'
import { isUnauthorized } from './api-client'

export const LOGIN_REDIRECT_MS = 500

/** Spec §8: on 401, say so and go to /api/login after 500 ms. Returns true when it handled the error. */
export function handleUnauthorized(error: unknown): boolean {
  if (!isUnauthorized(error)) return false
  toast({ title: 'Unauthorized', description: 'You are logged out. Logging in again...', variant: 'destructive' })
  setTimeout(() => {
    window.location.href = '/api/login'
  }, LOGIN_REDIRECT_MS)
  return true
}

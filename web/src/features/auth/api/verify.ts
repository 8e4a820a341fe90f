import { api } from '@/lib/api-client'
import type { User } from '@/lib/types'

/** Exchanges the e-mailed token for a session. */
export function verifyMagicLink(token: string, invite: string | null): Promise<User> {
  const params = new URLSearchParams({ token })
  if (invite) params.set('invite', invite)
  return api.get<User>(`/api/auth/verify?${params.toString()}`)
}

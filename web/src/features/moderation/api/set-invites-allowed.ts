import { api } from '@/lib/api-client'
import type { LogEntry } from '@/lib/types'
import { useModerationAction, type Reasoned } from './moderation-action'

export interface InvitesInput extends Reasoned {
  member: { id: number; username: string }
  allowed: boolean
}

/** Takes a member's invites away (no new codes, unused ones refused) or gives them back. */
export const setInvitesAllowed = ({ member, allowed, reason }: InvitesInput) =>
  api.post<LogEntry>(`/api/moderation/members/${member.id}/invites`, { allowed, reason })

export function useSetInvitesAllowed() {
  return useModerationAction(setInvitesAllowed, ({ member, allowed }) =>
    allowed ? `Invites given back to @${member.username}` : `Invites taken from @${member.username}`,
  )
}

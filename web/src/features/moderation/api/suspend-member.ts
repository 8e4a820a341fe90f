import { api } from '@/lib/api-client'
import type { LogEntry } from '@/lib/types'
import { useModerationAction, type Reasoned } from './moderation-action'

export interface SuspendInput extends Reasoned {
  member: { id: number; username: string }
  /** null: until lifted. */
  days: number | null
}

/** Ends the member's sessions at once and hides them and their posts for `days`, or until lifted. */
export const suspendMember = ({ member, reason, days }: SuspendInput) =>
  api.post<LogEntry>(`/api/moderation/members/${member.id}/suspend`, { reason, ...(days === null ? {} : { days }) })

export function useSuspendMember() {
  return useModerationAction(suspendMember, ({ member, days }) =>
    days === null ? `@${member.username} suspended until lifted` : `@${member.username} suspended for ${days === 1 ? '1 day' : `${days} days`}`,
  )
}

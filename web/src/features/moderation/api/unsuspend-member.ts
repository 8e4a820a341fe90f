import { api } from '@/lib/api-client'
import type { LogEntry } from '@/lib/types'
import { useModerationAction, type Reasoned } from './moderation-action'

export const unsuspendMember = ({ member, reason }: Reasoned & { member: { id: number; username: string } }) =>
  api.post<LogEntry>(`/api/moderation/members/${member.id}/unsuspend`, { reason })

export function useUnsuspendMember() {
  return useModerationAction(unsuspendMember, ({ member }) => `Suspension of @${member.username} lifted`)
}

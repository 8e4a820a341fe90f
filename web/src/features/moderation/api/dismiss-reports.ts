import { api } from '@/lib/api-client'
import type { LogEntry } from '@/lib/types'
import { useModerationAction, type Reasoned } from './moderation-action'

/** Dismisses every open report of the target whose newest open report is `reportId`. */
export const dismissReports = ({ reportId, reason }: Reasoned & { reportId: number }) =>
  api.post<LogEntry>(`/api/moderation/reports/${reportId}/dismiss`, { reason })

export function useDismissReports() {
  return useModerationAction(dismissReports, () => 'Reports dismissed')
}

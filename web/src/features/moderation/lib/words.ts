// How moderation reads in the product's words.
import { dateTime, endDate } from '@/lib/utils'
import { REPORT_REASONS, type LogEntry, type ReportReason } from '@/lib/types'

export function reasonLabel(reason: ReportReason): string {
  return REPORT_REASONS.find((option) => option.value === reason)?.label ?? reason
}

/** "until Jan 3, 2027, 2:05 PM", or "until lifted" for a suspension with no end. */
export function suspensionEnd(until: string | null | undefined): string {
  const end = endDate(until)
  return end ? `until ${dateTime(end)}` : 'until lifted'
}

/** What the moderator did, as the log says it: "Suspended until …", "Removed a post". */
export function actionWords(entry: Pick<LogEntry, 'action' | 'until'>): string {
  switch (entry.action) {
    case 'dismiss':
      return 'Dismissed reports'
    case 'remove_post':
      return 'Removed a post'
    case 'suspend':
      return `Suspended ${suspensionEnd(entry.until)}`
    case 'unsuspend':
      return 'Lifted a suspension'
    case 'take_invites':
      return 'Took invites away'
    case 'give_invites':
      return 'Gave invites back'
  }
}

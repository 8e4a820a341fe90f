import { useInfiniteQuery } from '@tanstack/react-query'
import { pagedQueryOptions } from '@/lib/paged-query'
import type { ReportGroup } from '@/lib/types'
import { moderationKeys } from '@/lib/query-keys'

/** Open reports grouped by what they report, newest report first (moderators only). */
export const reportsQueryOptions = () => pagedQueryOptions<ReportGroup>(moderationKeys.reports(), '/api/moderation/reports')

export function useReports() {
  return useInfiniteQuery(reportsQueryOptions())
}

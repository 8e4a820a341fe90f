import { useInfiniteQuery } from '@tanstack/react-query'
import { pagedQueryOptions } from '@/lib/paged-query'
import type { LogEntry } from '@/lib/types'
import { moderationKeys } from '@/lib/query-keys'

/** Every moderation action, newest first; any member may read it. */
export const logQueryOptions = () => pagedQueryOptions<LogEntry>(moderationKeys.log(), '/api/moderation/log')

export function useModerationLog() {
  return useInfiniteQuery(logQueryOptions())
}

import { useInfiniteQuery } from '@tanstack/react-query'
import { pagedQueryOptions } from '@/lib/paged-query'
import type { MutedMember } from '@/lib/types'
import { safetyKeys } from '@/lib/query-keys'

/** The members the viewer has muted now (ended mutes are not listed). */
export const mutesQueryOptions = () => pagedQueryOptions<MutedMember>(safetyKeys.mutes(), '/api/mutes')

export function useMutes() {
  return useInfiniteQuery(mutesQueryOptions())
}

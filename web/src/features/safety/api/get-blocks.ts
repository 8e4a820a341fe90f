import { useInfiniteQuery } from '@tanstack/react-query'
import { pagedQueryOptions } from '@/lib/paged-query'
import type { BlockedMember } from '@/lib/types'
import { safetyKeys } from '@/lib/query-keys'

/** The members the viewer blocked, newest first. */
export const blocksQueryOptions = () => pagedQueryOptions<BlockedMember>(safetyKeys.blocks(), '/api/blocks')

export function useBlocks() {
  return useInfiniteQuery(blocksQueryOptions())
}

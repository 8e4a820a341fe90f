import { pagedQueryOptions, type HasMore } from '@/lib/paged-query'
import type { Post } from '@/lib/types'

/** Paged post lists (`pagedQueryOptions`). */
export function postPagesOptions(queryKey: readonly unknown[], path: string, start = 0, hasMore?: HasMore<Post>) {
  return pagedQueryOptions<Post>(queryKey, path, start, hasMore)
}

import { pagedQueryOptions } from '@/lib/paged-query'
import type { Post } from '@/lib/types'

/** Paged post lists (`pagedQueryOptions`). */
export function postPagesOptions(queryKey: readonly unknown[], path: string, start = 0) {
  return pagedQueryOptions<Post>(queryKey, path, start)
}

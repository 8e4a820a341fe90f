import { infiniteQueryOptions } from '@tanstack/react-query'
import { api } from './api-client'
import { PAGE_SIZE } from './types'

/** Whether a list goes on after this page: by default, only after a full page. */
export type HasMore<T> = (lastPage: T[]) => boolean
const afterAFullPage = <T>(lastPage: T[]) => lastPage.length === PAGE_SIZE

/**
 * A paged list: offset starts at `start` and grows by 20; a next page exists only after a full
 * page, or as `hasMore` says. `path` may carry a query of its own (`/api/posts/search?q=rust`).
 */
export function pagedQueryOptions<T>(queryKey: readonly unknown[], path: string, start = 0, hasMore: HasMore<T> = afterAFullPage) {
  const joiner = path.includes('?') ? '&' : '?'
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => api.get<T[]>(`${path}${joiner}limit=${PAGE_SIZE}&offset=${pageParam}`),
    initialPageParam: start,
    getNextPageParam: (lastPage: T[], allPages: T[][]) => (hasMore(lastPage) ? start + allPages.length * PAGE_SIZE : undefined),
  })
}

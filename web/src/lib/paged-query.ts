import { infiniteQueryOptions } from '@tanstack/react-query'
import { api } from './api-client'
import { PAGE_SIZE } from './types'

/**
 * A paged list: offset starts at `start` and grows by 20; a next page exists only after a full page.
 * `path` may carry a query of its own (`/api/posts/search?q=rust`).
 */
export function pagedQueryOptions<T>(queryKey: readonly unknown[], path: string, start = 0) {
  const joiner = path.includes('?') ? '&' : '?'
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => api.get<T[]>(`${path}${joiner}limit=${PAGE_SIZE}&offset=${pageParam}`),
    initialPageParam: start,
    getNextPageParam: (lastPage: T[], allPages: T[][]) =>
      lastPage.length === PAGE_SIZE ? start + allPages.length * PAGE_SIZE : undefined,
  })
}

import { infiniteQueryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { PAGE_SIZE, type Post } from '@/lib/types'

/** Paged post lists: offset starts at `start` and grows by 20; a next page exists only after a full page. */
export function postPagesOptions(queryKey: readonly unknown[], path: string, start = 0) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => api.get<Post[]>(`${path}?limit=${PAGE_SIZE}&offset=${pageParam}`),
    initialPageParam: start,
    getNextPageParam: (lastPage: Post[], allPages: Post[][]) =>
      lastPage.length === PAGE_SIZE ? start + allPages.length * PAGE_SIZE : undefined,
  })
}

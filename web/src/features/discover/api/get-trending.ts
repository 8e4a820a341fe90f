import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { TrendingTag } from '@/lib/types'
import { tagKeys } from '@/lib/query-keys'

/** The most the card shows after "Show more" (the server's maximum too). */
export const TRENDING_LIMIT = 20

export const getTrending = () => api.get<TrendingTag[]>(`/api/trending?limit=${TRENDING_LIMIT}`)

export const trendingQueryOptions = () =>
  queryOptions({
    queryKey: tagKeys.trending(),
    queryFn: getTrending,
    // The server ranks the tags again every few minutes.
    staleTime: 5 * 60_000,
  })

export function useTrending() {
  return useQuery(trendingQueryOptions())
}

import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Tag } from '@/lib/types'
import { tagKeys } from '@/lib/query-keys'

export const getTag = (name: string) => api.get<Tag>(`/api/tags/${encodeURIComponent(name)}`)

export const tagQueryOptions = (name: string) =>
  queryOptions({
    queryKey: tagKeys.tag(name),
    queryFn: () => getTag(name),
    // Its week's counts change with every post: each visit asks again.
    staleTime: 0,
  })

export function useTag(name: string) {
  return useQuery(tagQueryOptions(name))
}

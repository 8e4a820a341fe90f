import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { FollowedTag } from '@/lib/types'
import { tagKeys } from '@/lib/query-keys'

/** The tags the member follows, by name (at most 100: one list, no pages). */
export const getFollowedTags = () => api.get<FollowedTag[]>('/api/followed-tags')

export const followedTagsQueryOptions = () => queryOptions({ queryKey: tagKeys.followed(), queryFn: getFollowedTags })

export function useFollowedTags() {
  return useQuery(followedTagsQueryOptions())
}

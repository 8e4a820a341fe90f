import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { followKeys } from '@/lib/query-keys'

export const getFollowStatus = (userId: number) => api.get<{ isFollowing: boolean }>(`/api/follows/${userId}/status`)

export const followStatusQueryOptions = (userId: number) =>
  queryOptions({ queryKey: followKeys.status(userId), queryFn: () => getFollowStatus(userId) })

export function useFollowStatus(userId: number, enabled = true) {
  return useQuery({ ...followStatusQueryOptions(userId), enabled })
}

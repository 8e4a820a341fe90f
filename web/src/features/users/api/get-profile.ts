import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Profile } from '@/lib/types'
import { userKeys } from '@/lib/query-keys'

export const getProfile = (username: string) => api.get<Profile>(`/api/users/${encodeURIComponent(username)}`)

export const profileQueryOptions = (username: string) =>
  queryOptions({ queryKey: userKeys.profile(username), queryFn: () => getProfile(username) })

/** `enabled` false: not asked for (the caller has what it needs already). */
export function useProfile(username: string, enabled = true) {
  return useQuery({ ...profileQueryOptions(username), enabled })
}

import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { User } from '@/lib/types'
import { userKeys } from '@/lib/query-keys'

export const SUGGESTION_LIMIT = 10

export const getSuggestedUsers = () => api.get<User[]>(`/api/users/suggested?limit=${SUGGESTION_LIMIT}`)

export const suggestedQueryOptions = () => queryOptions({ queryKey: userKeys.suggested(), queryFn: getSuggestedUsers })

export function useSuggestedUsers(enabled = true) {
  return useQuery({ ...suggestedQueryOptions(), enabled })
}

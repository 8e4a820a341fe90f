import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { StarterPack } from '@/lib/types'
import { userKeys } from '@/lib/query-keys'

export const getStarterPack = () => api.get<StarterPack>('/api/users/starter-pack')

export const starterPackQueryOptions = () => queryOptions({ queryKey: userKeys.starterPack(), queryFn: getStarterPack })

/** The viewer's inviter and people the inviter follows. */
export function useStarterPack(enabled = true) {
  return useQuery({ ...starterPackQueryOptions(), enabled })
}

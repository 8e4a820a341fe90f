import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Invite } from '@/lib/types'
import { inviteKeys } from '@/lib/query-keys'

export const getInvites = () => api.get<Invite[]>('/api/invites')

export const invitesQueryOptions = () => queryOptions({ queryKey: inviteKeys.list(), queryFn: getInvites })

export function useInvites(enabled = true) {
  return useQuery({ ...invitesQueryOptions(), enabled })
}

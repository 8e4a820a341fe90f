import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { InviteTree } from '@/lib/types'
import { moderationKeys } from '@/lib/query-keys'

export const getInviteTree = (memberId: number) => api.get<InviteTree>(`/api/moderation/members/${memberId}/invite-tree`)

export const inviteTreeQueryOptions = (memberId: number) =>
  queryOptions({ queryKey: moderationKeys.inviteTree(memberId), queryFn: () => getInviteTree(memberId) })

/** Who invited the member and whom they invited, each with their standing. */
export function useInviteTree(memberId: number) {
  return useQuery(inviteTreeQueryOptions(memberId))
}

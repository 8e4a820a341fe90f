import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { BlockedMember } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { memberChanged, type MemberRef } from './member-changed'
import { toastFailure } from '@/lib/toast-failure'

export const blockMember = (userId: number) => api.post<BlockedMember>('/api/blocks', { userId })

export function useBlockMember() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (member: MemberRef) => blockMember(member.id),
    onSuccess: (_blocked, member) => {
      memberChanged(queryClient, member, { isBlocking: true })
      toast({ title: `Blocked @${member.username}` })
    },
    onError: (error) => toastFailure(error, 'Failed to block. Please try again.'),
  })
}

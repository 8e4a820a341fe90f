import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toast } from '@/components/ui/use-toast'
import { memberChanged, type MemberRef } from './member-changed'
import { toastFailure } from '@/lib/toast-failure'

export const unblockMember = (userId: number) => api.delete(`/api/blocks/${userId}`)

export function useUnblockMember() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (member: MemberRef) => unblockMember(member.id),
    onSuccess: (_none, member) => {
      memberChanged(queryClient, member, { isBlocking: false })
      toast({ title: `Unblocked @${member.username}` })
    },
    onError: (error) => toastFailure(error, 'Failed to unblock. Please try again.'),
  })
}

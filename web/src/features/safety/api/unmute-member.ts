import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toast } from '@/components/ui/use-toast'
import { memberChanged, type MemberRef } from './member-changed'
import { toastFailure } from '@/lib/toast-failure'

export const unmuteMember = (userId: number) => api.delete(`/api/mutes/${userId}`)

export function useUnmuteMember() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (member: MemberRef) => unmuteMember(member.id),
    onSuccess: (_none, member) => {
      memberChanged(queryClient, member, { isMuting: false, mutedUntil: null })
      toast({ title: `Unmuted @${member.username}` })
    },
    onError: (error) => toastFailure(error, 'Failed to unmute. Please try again.'),
  })
}

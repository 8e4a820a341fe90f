import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Invite } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { authKeys, inviteKeys } from '@/lib/query-keys'

export const createInvite = () => api.post<Invite>('/api/invites')

export function useCreateInvite() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createInvite,
    onSuccess: (invite) => {
      toast({ title: 'Invite created', description: invite?.code ? `Your new code is ${invite.code}.` : undefined })
      void queryClient.invalidateQueries({ queryKey: inviteKeys.all })
      // invitesAvailable lives on the current user
      void queryClient.invalidateQueries({ queryKey: authKeys.all })
    },
    onError: (error) => {
      if (!handleUnauthorized(error))
        toast({
          title: 'Error',
          description: messageOf(error, 'Failed to create invite code. You may have reached your limit.'),
          variant: 'destructive',
        })
    },
  })
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toast } from '@/components/ui/use-toast'
import { toastFailure } from '@/lib/toast-failure'
import { accountKeys } from '@/lib/query-keys'
import type { MemberSession } from './get-sessions'
import { deviceName } from '../lib/device-name'

/** Ends one of the member's other sessions, wherever it is open. */
export const endSession = (id: string) => api.delete(`/api/auth/sessions/${encodeURIComponent(id)}`)

export function useEndSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (session: MemberSession) => endSession(session.id),
    onSuccess: (_none, session) => {
      queryClient.setQueryData<MemberSession[]>(accountKeys.sessions(), (list) => list?.filter((s) => s.id !== session.id))
      toast({ title: `Logged out ${deviceName(session)}` })
    },
    onError: (error) => toastFailure(error, 'Failed to log out that session. Please try again.'),
    // A session someone else ended meanwhile is gone either way: ask the list again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions() }),
  })
}

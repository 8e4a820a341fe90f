import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toast } from '@/components/ui/use-toast'
import { toastFailure } from '@/lib/toast-failure'
import { accountKeys } from '@/lib/query-keys'

/** Ends every other session of the member: other browsers and devices. */
export const endOtherSessions = () => api.post<void>('/api/auth/logout-others')

export function useEndOtherSessions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: endOtherSessions,
    onSuccess: () => toast({ title: 'Logged out everywhere else' }),
    onError: (error) => toastFailure(error, 'Failed to log out the other sessions. Please try again.'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions() }),
  })
}

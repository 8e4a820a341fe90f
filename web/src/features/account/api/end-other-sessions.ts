import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toast } from '@/components/ui/use-toast'
import { toastFailure } from '@/lib/toast-failure'
import { accountKeys } from '@/lib/query-keys'

/**
 * Ends every other session of the member: other browsers and devices, and apps. With
 * `removePasskeys`, their passkeys go too (one someone added would sign them in again).
 */
export const endOtherSessions = (removePasskeys: boolean) => api.post<void>('/api/auth/logout-others', { removePasskeys })

export function useEndOtherSessions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: endOtherSessions,
    onSuccess: (_none, removedPasskeys) =>
      toast({
        title: 'Logged out everywhere else',
        ...(removedPasskeys ? { description: 'Your passkeys were removed too.' } : {}),
      }),
    onError: (error) => toastFailure(error, 'Failed to log out the other sessions. Please try again.'),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.sessions() })
      void queryClient.invalidateQueries({ queryKey: accountKeys.passkeys() })
    },
  })
}

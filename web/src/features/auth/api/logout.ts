import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toast } from '@/components/ui/use-toast'
import { forgetMemberStorage } from '@/lib/member-storage'
import { authKeys } from '@/lib/query-keys'

export const logout = () => api.post<void>('/api/auth/logout')

export function useLogout() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationKey: authKeys.logout(),
    mutationFn: logout,
    onSuccess: () => {
      // The member's drafts stay in no browser they logged out of.
      forgetMemberStorage()
      // Nobody is logged in now: the screens still mounted are told so, and none asks the
      // server again (emptying the cache made them refetch, and meet a 401) before the landing
      // page loads, which drops everything the page held.
      queryClient.setQueryData(authKeys.me(), null)
      window.location.href = '/'
    },
    onError: () => toast({ title: 'Error', description: 'Failed to log out', variant: 'destructive' }),
  })
}

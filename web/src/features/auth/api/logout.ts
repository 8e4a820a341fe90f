import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toast } from '@/components/ui/use-toast'

export const logout = () => api.post<void>('/api/auth/logout')

export function useLogout() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      queryClient.clear()
      window.location.href = '/'
    },
    onError: () => toast({ title: 'Error', description: 'Failed to logout', variant: 'destructive' }),
  })
}

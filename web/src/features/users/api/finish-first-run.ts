import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { authKeys } from '@/lib/query-keys'

export const finishFirstRun = () => api.post<void>('/api/users/first-run')

/** Marks the first-run step done, whether gone through or skipped. */
export function useFinishFirstRun() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: finishFirstRun,
    onSuccess: () => {
      queryClient.setQueryData(authKeys.me(), (me: object | null | undefined) => me && { ...me, firstRunDone: true })
      void queryClient.invalidateQueries({ queryKey: authKeys.all })
    },
  })
}

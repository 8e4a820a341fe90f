import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { authKeys, accountKeys } from '@/lib/query-keys'
import { AFTER_DELETION } from '../components/account-deleted-notice'

/** Deletes the member's account with the token of the e-mailed link; the session ends with it. */
export const confirmDeletion = (token: string) => api.post<void>('/api/account/delete/confirm', { token })

export function useConfirmDeletion() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationKey: accountKeys.confirmDeletion(),
    mutationFn: confirmDeletion,
    onSuccess: () => {
      // As after logging out: nobody is logged in now, and the landing page loads afresh, saying why.
      queryClient.setQueryData(authKeys.me(), null)
      window.location.href = AFTER_DELETION
    },
  })
}

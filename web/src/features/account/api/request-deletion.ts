import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toastFailure } from '@/lib/toast-failure'
import { accountKeys } from '@/lib/query-keys'

/** E-mails the member a link that confirms deleting their account; deletes nothing. */
export const requestDeletion = () => api.post<{ message: string }>('/api/account/delete')

export function useRequestDeletion() {
  return useMutation({
    mutationKey: accountKeys.requestDeletion(),
    mutationFn: requestDeletion,
    onError: (error) => toastFailure(error, 'Failed to send the confirmation e-mail. Please try again.'),
  })
}

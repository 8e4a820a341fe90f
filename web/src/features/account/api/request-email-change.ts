import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** E-mails a link to the new address; the address changes when it is followed. */
export const requestEmailChange = (input: { email: string }) => api.post<{ message: string }>('/api/auth/email', input)

export function useRequestEmailChange() {
  return useMutation({ mutationFn: requestEmailChange })
}

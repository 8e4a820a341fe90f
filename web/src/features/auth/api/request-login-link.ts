import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export const requestLoginLink = (input: { email: string }) =>
  api.post<{ message: string }>('/api/auth/request-login-link', input)

export function useRequestLoginLink() {
  return useMutation({ mutationFn: requestLoginLink })
}

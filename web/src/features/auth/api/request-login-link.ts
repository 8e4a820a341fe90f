import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** `next`: the page of this site the e-mailed link leads on to once signed in (`/post/42`). */
export const requestLoginLink = (input: { email: string; next?: string }) =>
  api.post<{ message: string }>('/api/auth/request-login-link', input)

export function useRequestLoginLink() {
  return useMutation({ mutationFn: requestLoginLink })
}

import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export const joinWaitlist = (input: { email: string }) => api.post<{ message: string }>('/api/waitlist', input)

export function useJoinWaitlist() {
  return useMutation({ mutationFn: joinWaitlist })
}

import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export interface MagicLinkInput {
  email: string
  inviteCode: string
}

export const requestMagicLink = (input: MagicLinkInput) =>
  api.post<{ message: string }>('/api/auth/request-magic-link', input)

export function useRequestMagicLink() {
  return useMutation({ mutationFn: requestMagicLink })
}

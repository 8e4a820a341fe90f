import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toastFailure } from '@/lib/toast-failure'
import type { AuthorizationResult } from '@/lib/types'
import type { AuthorizationParams } from '../lib/authorization'

/** The member's Allow or Deny: answers where the browser goes next (or the code to copy). */
export const answerAuthorization = (params: AuthorizationParams, allow: boolean) =>
  api.post<AuthorizationResult>('/api/oauth/authorization', { ...params, allow })

export function useAnswerAuthorization(params: AuthorizationParams) {
  return useMutation({
    mutationFn: (allow: boolean) => answerAuthorization(params, allow),
    onError: (error) => toastFailure(error, 'Your answer could not be sent. Please try again.'),
  })
}

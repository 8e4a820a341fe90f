import { api } from '@/lib/api-client'

export interface EmailChanged {
  email: string
  message: string
}

/** Uses the e-mailed token: the member's address becomes the one it was sent to. */
export const confirmEmailChange = (token: string) => api.post<EmailChanged>('/api/auth/email/confirm', { token })

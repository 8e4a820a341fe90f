import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { User } from '@/lib/types'
import { authKeys } from '@/features/auth'
import { postKeys } from '@/features/posts'
import { userKeys } from './keys'

export interface ProfileInput {
  displayName: string
  bio: string
  website: string
}

export const updateProfile = (input: ProfileInput) => api.put<User>('/api/users/profile', input)

export function useUpdateProfile() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      queryClient.setQueryData(userKeys.profile(user.username), user)
      void queryClient.invalidateQueries({ queryKey: userKeys.all })
      void queryClient.invalidateQueries({ queryKey: authKeys.all })
      void queryClient.invalidateQueries({ queryKey: postKeys.all })
    },
  })
}

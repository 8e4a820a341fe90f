import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Profile, User } from '@/lib/types'
import { authKeys, postKeys, userKeys } from '@/lib/query-keys'

export interface ProfileInput {
  /** A new username; absent or the current one leaves it as it is. */
  username?: string
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
      // The answer is the member alone: keep what the profile says besides (who invited them).
      queryClient.setQueryData<Profile>(userKeys.profile(user.username), (profile) => profile && { ...profile, ...user })
      void queryClient.invalidateQueries({ queryKey: userKeys.all })
      void queryClient.invalidateQueries({ queryKey: authKeys.all })
      void queryClient.invalidateQueries({ queryKey: postKeys.all })
    },
  })
}

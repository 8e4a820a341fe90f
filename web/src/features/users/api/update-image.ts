import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Profile, User } from '@/lib/types'
import { authKeys, postKeys, userKeys } from '@/lib/query-keys'

export type ImageKind = 'profile' | 'header'

const paths: Record<ImageKind, string> = {
  profile: '/api/profile-images',
  header: '/api/header-images',
}

export const updateImage = ({ kind, imageURL }: { kind: ImageKind; imageURL: string }) =>
  api.put<User>(paths[kind], { imageURL })

/** Sets the avatar or the header from an uploaded file's URL. */
export function useUpdateImage() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateImage,
    onSuccess: (user) => {
      // The answer is the member alone: keep what the profile says besides (who invited them).
      queryClient.setQueryData<Profile>(userKeys.profile(user.username), (profile) => profile && { ...profile, ...user })
      void queryClient.invalidateQueries({ queryKey: userKeys.all })
      void queryClient.invalidateQueries({ queryKey: authKeys.all })
      void queryClient.invalidateQueries({ queryKey: postKeys.all })
    },
  })
}

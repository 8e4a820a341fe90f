import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { User } from '@/lib/types'
import { authKeys } from '@/features/auth'
import { postKeys } from '@/features/posts'
import { userKeys } from './keys'

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
      queryClient.setQueryData(userKeys.profile(user.username), user)
      void queryClient.invalidateQueries({ queryKey: userKeys.all })
      void queryClient.invalidateQueries({ queryKey: authKeys.all })
      void queryClient.invalidateQueries({ queryKey: postKeys.all })
    },
  })
}

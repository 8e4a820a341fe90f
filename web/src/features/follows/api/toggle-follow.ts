import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { toast } from '@/components/ui/use-toast'
import { authKeys, postKeys, userKeys, followKeys } from '@/lib/query-keys'

export const follow = (userId: number) => api.post<{ isFollowing: boolean }>('/api/follows', { followingId: userId })
export const unfollow = (userId: number) => api.delete<{ isFollowing: boolean }>(`/api/follows/${userId}`)

export function useToggleFollow(userId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationKey: ['follow', userId],
    scope: { id: `follow-${userId}` },
    mutationFn: (shouldFollow: boolean) => (shouldFollow ? follow(userId) : unfollow(userId)),
    onSuccess: (result, shouldFollow) => {
      queryClient.setQueryData(followKeys.status(userId), { isFollowing: result?.isFollowing ?? shouldFollow })
      // Counts on profiles, suggestions and the Friends feed change. The starter pack stays as
      // shown, so a row just followed says "Following" (and can be undone) instead of leaving.
      const starterPack = userKeys.starterPack()
      void queryClient.invalidateQueries({ queryKey: userKeys.all, predicate: (query) => query.queryKey[1] !== starterPack[1] })
      void queryClient.invalidateQueries({ queryKey: authKeys.all })
      void queryClient.invalidateQueries({ queryKey: postKeys.feed() })
    },
    onError: (error) => {
      if (!handleUnauthorized(error))
        toast({ title: 'Error', description: 'Failed to update follow status. Please try again.', variant: 'destructive' })
    },
  })
}

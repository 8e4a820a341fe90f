import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toast } from '@/components/ui/use-toast'
import { toastFailure } from '@/lib/toast-failure'
import type { FollowedTag, Tag } from '@/lib/types'
import { postKeys, tagKeys } from '@/lib/query-keys'

const path = (name: string) => `/api/tags/${encodeURIComponent(name)}/follow`
export const followTag = (name: string) => api.post<FollowedTag>(path(name))
export const unfollowTag = (name: string) => api.delete(path(name))

type TagFollow = { name: string; follow: boolean }

/**
 * Follows or unfollows a tag (`{ name, follow }`): its page's button and Settings' list agree, and
 * the Friends feed is read again (a followed tag's new posts reach it; an unfollowed one's leave).
 */
export function useToggleTagFollow() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ name, follow }: TagFollow): Promise<void> => {
      if (follow) await followTag(name)
      else await unfollowTag(name)
    },
    onSuccess: (_result, { name, follow }) => {
      queryClient.setQueryData<Tag>(tagKeys.tag(name), (tag) => (tag ? { ...tag, isFollowing: follow } : tag))
      void queryClient.invalidateQueries({ queryKey: tagKeys.followed() })
      void queryClient.invalidateQueries({ queryKey: postKeys.feed() })
      toast({ title: follow ? `Following #${name}` : `Unfollowed #${name}` })
    },
    onError: (error, { follow }) =>
      toastFailure(error, follow ? 'Failed to follow the tag. Please try again.' : 'Failed to unfollow the tag. Please try again.'),
  })
}

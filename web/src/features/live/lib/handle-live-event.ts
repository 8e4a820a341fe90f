import type { QueryClient } from '@tanstack/react-query'
import { forgetMemberStorage } from '@/lib/member-storage'
import { sendToLogin } from '@/lib/unauthorized'
import { authKeys, messageKeys, notificationKeys, postKeys } from '@/lib/query-keys'
import { mergeLatestNotifications } from '@/features/notifications'
import { refetchPostsHolding, refetchThreadsOf, threadReplyCount, updatePostEverywhere } from '@/features/posts'
import type { LiveEvent } from './live-event'

export interface LiveEffects {
  queryClient: QueryClient
  /** Posts that reached the Friends timeline, for the "Show N new posts" button. */
  addNewFeedPosts: (postIds: readonly number[]) => void
}

/** Whether this tab is logging out by its own path (the logout button), or already has. */
function loggingOut(queryClient: QueryClient): boolean {
  return queryClient.isMutating({ mutationKey: authKeys.logout() }) > 0 || queryClient.getQueryData(authKeys.me()) === null
}

/** What each event of the stream changes in the tab. */
export function handleLiveEvent(event: LiveEvent, { queryClient, addNewFeedPosts }: LiveEffects) {
  switch (event.type) {
    case 'hello':
      return
    case 'notification':
      void mergeLatestNotifications(queryClient)
      return
    case 'unread-count':
      queryClient.setQueryData(notificationKeys.unreadCount(), { count: event.count })
      return
    case 'feed':
      addNewFeedPosts(event.postIds)
      return
    case 'post-counts': {
      const { likeCount, repostCount, replyCount } = event
      // A reply came or went: the open thread shows the count, and must show the reply too.
      const repliesChanged = threadReplyCount(queryClient, event.postId) !== replyCount
      updatePostEverywhere(queryClient, event.postId, (post) => ({ ...post, likeCount, repostCount, replyCount }))
      if (repliesChanged) refetchThreadsOf(queryClient, event.postId)
      return
    }
    case 'post-card':
      // The member's own new post, which their screens got before its link's card.
      refetchPostsHolding(queryClient, event.postId)
      return
    case 'message':
      // A conversation changed for the member: its messages, where it is listed, the unread count.
      void queryClient.invalidateQueries({ queryKey: messageKeys.conversation(event.conversationId) })
      void queryClient.invalidateQueries({ queryKey: messageKeys.messages(event.conversationId) })
      void queryClient.invalidateQueries({ queryKey: messageKeys.lists() })
      void queryClient.invalidateQueries({ queryKey: messageKeys.unreadCount() })
      return
    case 'reset':
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all })
      void queryClient.invalidateQueries({ queryKey: messageKeys.all })
      void queryClient.invalidateQueries({ queryKey: postKeys.feed(), exact: true })
      return
    case 'session-ended':
      // The member's drafts go at once, however the session ended (even by this tab's logout).
      forgetMemberStorage()
      // As on a 401; the tab's own logout goes to the landing page by itself.
      if (!loggingOut(queryClient)) sendToLogin()
      return
  }
}

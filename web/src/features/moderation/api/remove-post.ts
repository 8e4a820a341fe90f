import { api } from '@/lib/api-client'
import type { LogEntry } from '@/lib/types'
import { useModerationAction, type Reasoned } from './moderation-action'

/** Hides the post from everyone, tells its author why, and resolves its open reports. */
export const removePost = ({ postId, reason }: Reasoned & { postId: number }) =>
  api.post<LogEntry>(`/api/moderation/posts/${postId}/remove`, { reason })

export function useRemovePost() {
  return useModerationAction(removePost, () => 'Post removed')
}

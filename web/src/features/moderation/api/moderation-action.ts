import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { LogEntry } from '@/lib/types'
import { toastFailure } from '@/lib/toast-failure'
import { toast } from '@/components/ui/use-toast'
import { notificationKeys, postKeys, userKeys, moderationKeys } from '@/lib/query-keys'

/** Every moderation action carries the moderator's reason, written to the public log with it. */
export interface Reasoned {
  reason: string
}

/**
 * A moderation action: on success the queue, the log and the invite trees are asked again, as
 * are the posts and profiles it may hide or show, and `done` names what happened in a toast.
 */
export function useModerationAction<V extends Reasoned>(act: (input: V) => Promise<LogEntry>, done: (input: V) => string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: act,
    onSuccess: (_entry, input) => {
      for (const queryKey of [moderationKeys.all, postKeys.all, userKeys.all, notificationKeys.all] as const)
        void queryClient.invalidateQueries({ queryKey })
      toast({ title: done(input) })
    },
    onError: (error) => toastFailure(error, 'The action failed. Please try again.'),
  })
}

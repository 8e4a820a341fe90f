import { Check } from 'lucide-react'
import { cn, relativeTime } from '@/lib/utils'
import type { Post } from '@/lib/types'
import { useVote } from '../api/vote'

/** Poll results as percentages; open polls can be voted on once. */
export function PostPoll({ post, currentUserId }: { post: Post; currentUserId?: number }) {
  const vote = useVote()
  const votes = post.pollVotes ?? {}
  const total = post.pollOptions.reduce((sum, option) => sum + (votes[option]?.length ?? 0), 0)
  const myVote =
    post.myVote ??
    (currentUserId !== undefined
      ? (post.pollOptions.find((option) => votes[option]?.includes(currentUserId)) ?? null)
      : null)
  const expired = post.pollExpiresAt ? new Date(post.pollExpiresAt).getTime() <= Date.now() : false
  const canVote = !expired && myVote === null && currentUserId !== undefined && !vote.isPending

  return (
    <div className="mt-3 grid gap-2" role="group" aria-label="Poll">
      {post.pollOptions.map((option) => {
        const count = votes[option]?.length ?? 0
        const percent = total === 0 ? 0 : Math.round((count / total) * 100)
        const mine = myVote === option
        return (
          <button
            key={option}
            type="button"
            disabled={!canVote}
            onClick={() => vote.mutate({ postId: post.id, option })}
            aria-label={canVote ? `Vote for ${option}` : `${option}: ${percent}%${mine ? ', your vote' : ''}`}
            className={cn(
              'relative flex h-10 items-center justify-between overflow-hidden rounded-md border border-border px-3 text-left text-sm',
              canVote ? 'hover:border-primary hover:bg-accent' : 'cursor-default',
            )}
          >
            <span
              aria-hidden="true"
              className={cn('absolute inset-y-0 left-0', mine ? 'bg-primary/25' : 'bg-muted')}
              style={{ width: `${canVote ? 0 : percent}%` }}
            />
            <span className="relative flex items-center gap-1.5 font-medium">
              {option}
              {mine && <Check className="size-4 text-primary" aria-hidden="true" />}
            </span>
            {!canVote && <span className="relative tabular-nums">{percent}%</span>}
          </button>
        )
      })}
      <p className="text-xs text-muted-foreground">
        {total} {total === 1 ? 'vote' : 'votes'}
        {post.pollExpiresAt && (
          <>
            {' · '}
            {expired ? 'Expired' : 'Expires'} {relativeTime(post.pollExpiresAt)}
          </>
        )}
      </p>
    </div>
  )
}

import * as React from 'react'
import { Check } from 'lucide-react'
import { cn, relativeTime } from '@/lib/utils'
import type { Post } from '@/lib/types'
import { useVote } from '../api/vote'

// setTimeout's longest delay; a poll closes within a week.
const MAX_TIMER_MS = 2 ** 31 - 1

/** Whether the moment `iso` has passed; turns true when it comes while shown. */
function useHasPassed(iso: string | null | undefined): boolean {
  const at = iso ? new Date(iso).getTime() : null
  // The moment last seen to pass, so a different moment starts over.
  const [passedAt, setPassedAt] = React.useState(() => (at !== null && at <= Date.now() ? at : null))
  React.useEffect(() => {
    if (at === null || passedAt === at) return
    const left = Math.max(0, at - Date.now())
    if (left > MAX_TIMER_MS) return
    const timer = setTimeout(() => setPassedAt(at), left)
    return () => clearTimeout(timer)
  }, [at, passedAt])
  return at !== null && passedAt === at
}

const rowClass = 'relative flex h-10 w-full items-center justify-between overflow-hidden rounded-md border border-border px-3 text-sm'

/**
 * While the poll is open and the member has not voted, each option is a button that votes for it
 * (no results yet, so nothing reads as a 0% bar); once they voted or it ended, every option with
 * its share of the votes.
 */
export function PostPoll({ post, currentUserId }: { post: Post; currentUserId?: number }) {
  const vote = useVote()
  const votes = post.pollVotes ?? {}
  const total = post.pollOptions.reduce((sum, option) => sum + (votes[option]?.length ?? 0), 0)
  const myVote =
    post.myVote ??
    (currentUserId !== undefined
      ? (post.pollOptions.find((option) => votes[option]?.includes(currentUserId)) ?? null)
      : null)
  const expired = useHasPassed(post.pollExpiresAt)
  const canVote = !expired && myVote === null && currentUserId !== undefined

  return (
    <div className="mt-3 grid gap-2" role="group" aria-label="Poll">
      <ul className="grid gap-2">
        {canVote &&
          post.pollOptions.map((option) => (
            <li key={option}>
              <button
                type="button"
                disabled={vote.isPending}
                onClick={() => vote.mutate({ postId: post.id, option })}
                className={cn(
                  rowClass,
                  'justify-start border-primary/60 font-medium text-primary hover:bg-primary/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60',
                )}
              >
                {/* The space is text of its own, so the button's name reads "Vote for Tacos". */}
                <span className="sr-only">Vote for</span> <span className="truncate">{option}</span>
              </button>
            </li>
          ))}
        {!canVote && post.pollOptions.map((option) => {
          const count = votes[option]?.length ?? 0
          const percent = total === 0 ? 0 : Math.round((count / total) * 100)
          const mine = myVote === option
          return (
            <li key={option}>
              <div className={rowClass}>
                <span
                  aria-hidden="true"
                  className={cn('absolute inset-y-0 left-0', mine ? 'bg-primary/25' : 'bg-muted')}
                  style={{ width: `${percent}%` }}
                />
                <span className="relative flex min-w-0 items-center gap-1.5 font-medium">
                  <span className="truncate">{option}</span>
                  {mine && (
                    <>
                      <Check className="size-4 shrink-0 text-primary" aria-hidden="true" />
                      <span className="sr-only">(your vote)</span>
                    </>
                  )}
                </span>{' '}
                <span className="relative tabular-nums">{percent}%</span>
              </div>
            </li>
          )
        })}
      </ul>
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

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
 * While the poll is open and the member has not voted, each option is a button that votes for it,
 * or on a multiple-choice poll a checkbox with one Vote button (no results yet, so nothing reads
 * as a 0% bar); once they voted or it ended, every option with its share of the votes.
 */
export function PostPoll({ post, currentUserId }: { post: Post; currentUserId?: number }) {
  const vote = useVote()
  const votes = post.pollVotes ?? {}
  const total = post.pollOptions.reduce((sum, option) => sum + (votes[option]?.length ?? 0), 0)
  const myVotes =
    post.myVotes && post.myVotes.length > 0
      ? post.myVotes
      : post.myVote
        ? [post.myVote]
        : currentUserId !== undefined
          ? post.pollOptions.filter((option) => votes[option]?.includes(currentUserId))
          : []
  const expired = useHasPassed(post.pollExpiresAt)
  const canVote = !expired && myVotes.length === 0 && currentUserId !== undefined
  const [chosen, setChosen] = React.useState<string[]>([])
  const checkboxes = canVote && post.pollMultiple

  return (
    <div className="mt-3 grid gap-2" role="group" aria-label="Poll">
      <ul className="grid gap-2">
        {checkboxes &&
          post.pollOptions.map((option) => (
            <li key={option}>
              <label
                className={cn(
                  rowClass,
                  'cursor-pointer justify-start gap-2 hover:border-primary has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                )}
              >
                <input
                  type="checkbox"
                  checked={chosen.includes(option)}
                  disabled={vote.isPending}
                  onChange={(e) =>
                    setChosen(e.target.checked ? [...chosen, option] : chosen.filter((other) => other !== option))
                  }
                  className="size-4 shrink-0 accent-primary"
                />
                <span className="truncate font-medium">{option}</span>
              </label>
            </li>
          ))}
        {canVote &&
          !checkboxes &&
          post.pollOptions.map((option) => (
            <li key={option}>
              <button
                type="button"
                disabled={vote.isPending}
                onClick={() => vote.mutate({ postId: post.id, options: [option] })}
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
        {!canVote &&
          post.pollOptions.map((option) => {
            const count = votes[option]?.length ?? 0
            const percent = total === 0 ? 0 : Math.round((count / total) * 100)
            const mine = myVotes.includes(option)
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
      {checkboxes && (
        <button
          type="button"
          disabled={chosen.length === 0 || vote.isPending}
          onClick={() => vote.mutate({ postId: post.id, options: post.pollOptions.filter((o) => chosen.includes(o)) })}
          className="h-9 justify-self-start rounded-full bg-primary px-4 text-sm font-medium text-primary-foreground hover:bg-primary/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
        >
          Vote
        </button>
      )}
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

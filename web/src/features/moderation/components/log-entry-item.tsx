import { Link } from 'wouter'
import { cn, dateTime } from '@/lib/utils'
import type { LogEntry } from '@/lib/types'
import { actionWords } from '../lib/words'

/** Who or what the action was on: "@carol", "@carol's post 12". */
function Target({ entry }: { entry: LogEntry }) {
  if (!entry.member) return entry.postId === null ? null : <>post {entry.postId}</>
  const member = (
    <Link href={`/profile/${entry.member.username}`} className="text-primary underline underline-offset-2">
      @{entry.member.username}
    </Link>
  )
  return entry.postId === null ? member : <>{member}&apos;s post {entry.postId}</>
}

/** Who acted: the moderator for moderators, the role ("a moderator", "an admin") for everyone else. */
function Actor({ entry }: { entry: LogEntry }) {
  if (entry.moderator) return <>@{entry.moderator.username}</>
  return <>{entry.moderatorRole === 'admin' ? 'an admin' : 'a moderator'}</>
}

/** One line of the moderation log: date, action, target, reason, moderator (never a reporter). */
export function LogEntryItem({ entry, className }: { entry: LogEntry; className?: string }) {
  return (
    <li className={cn('grid gap-1 px-4 py-3', className)}>
      <p className="break-words">
        <span className="font-semibold">{actionWords(entry)}</span>
        {(entry.member || entry.postId !== null) && (
          <>
            {' · '}
            <Target entry={entry} />
          </>
        )}
      </p>
      <p className="whitespace-pre-wrap break-words">
        <span className="text-muted-foreground">Reason: </span>
        {entry.reason}
      </p>
      <p className="text-sm text-muted-foreground">
        By <Actor entry={entry} /> ·{' '}
        <time dateTime={entry.createdAt}>{dateTime(entry.createdAt)}</time>
      </p>
    </li>
  )
}

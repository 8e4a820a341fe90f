import { useId } from 'react'
import { Link } from 'wouter'
import { Avatar } from '@/components/ui/avatar'
import { cn, dateTime, plural, relativeTime } from '@/lib/utils'
import type { Post, ReportGroup, ReportedMessage, User } from '@/lib/types'
import { PostContent, PostImages } from '@/features/posts'
import { reasonLabel } from '../lib/words'
import { LogEntryItem } from './log-entry-item'
import { ModerationActions } from './moderation-actions'

/** The reported post as its author wrote it; moderators see it even if removed or deleted. */
function ReportedPost({ post }: { post: Post }) {
  const state = post.isRemoved ? 'Removed' : post.isDeleted ? 'Deleted' : null
  return (
    <div className="rounded-lg border border-border p-3">
      <p className="text-sm text-muted-foreground">
        Posted <time dateTime={post.createdAt}>{relativeTime(post.createdAt)}</time>
        {post.application && ` via ${post.application.name}`}
        {state && <span className="font-medium text-foreground"> · {state}</span>}
      </p>
      <div className="mt-1 text-[15px]">
        <PostContent text={post.content} entities={post.entities} />
      </div>
      <PostImages post={post} authorName={post.author.displayName} />
      {post.pollOptions.length > 0 && <p className="mt-2 text-sm text-muted-foreground">Poll: {post.pollOptions.join(' / ')}</p>}
    </div>
  )
}

function ReportedMember({ member }: { member: User }) {
  return (
    <div className="flex gap-3 rounded-lg border border-border p-3">
      <Avatar name={member.displayName} src={member.profileImageUrl} size={40} />
      <div className="min-w-0">
        <p className="truncate font-semibold">{member.displayName}</p>
        <p className="truncate text-sm text-muted-foreground">@{member.username}</p>
        {member.bio && <p className="mt-1 whitespace-pre-wrap break-words text-sm">{member.bio}</p>}
      </div>
    </div>
  )
}

/** The messages a member chose to report, as they are now: a message deleted or whose author left is empty. */
function ReportedMessages({ messages }: { messages: ReportedMessage[] }) {
  const captionId = useId()
  return (
    <figure aria-labelledby={captionId} className="mt-1">
      <figcaption id={captionId} className="text-muted-foreground">
        Reported messages
      </figcaption>
      <blockquote className="mt-0.5 border-l-2 border-border pl-2">
        <ol className="grid gap-1.5">
          {messages.map((message) => (
            <li key={message.id}>
              <p className="text-xs text-muted-foreground">
                <span className="font-semibold text-foreground">
                  {message.authorUsername ? `@${message.authorUsername}` : 'Deleted member'}
                </span>
                {' · '}
                <time dateTime={message.sentAt} title={dateTime(message.sentAt)}>
                  {relativeTime(message.sentAt)}
                </time>
              </p>
              <p className={cn('whitespace-pre-wrap break-words', !message.content && 'italic text-muted-foreground')}>
                {message.content || 'Message deleted'}
              </p>
            </li>
          ))}
        </ol>
      </blockquote>
    </figure>
  )
}

/** One target's open reports: what was reported, why, what happened to it before, and the actions. */
export function ReportGroupCard({ group }: { group: ReportGroup }) {
  const { member, post, history } = group
  const headingId = `report-group-${group.id}`
  const handle = `@${member.username}`
  const what = group.target === 'post' ? `${handle}'s post` : handle
  return (
    <article aria-labelledby={headingId} className="grid gap-3 px-4 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="min-w-0 break-words font-semibold">
          {group.target === 'post' ? 'Post by ' : 'Member '}
          <Link href={`/profile/${member.username}`} className="text-primary underline underline-offset-2">
            {handle}
          </Link>
        </h2>
        <span className="rounded-full bg-destructive/15 px-2.5 py-0.5 text-sm font-medium text-foreground">
          Reported by {plural(group.reportCount, 'member')}
        </span>
      </div>
      {post ? <ReportedPost post={post} /> : <ReportedMember member={member} />}
      {group.postId !== null && (
        <Link href={`/post/${group.postId}`} className="justify-self-start text-sm text-primary hover:underline">
          Open the post in its thread
        </Link>
      )}
      <section aria-label={`Reports of ${what}`}>
        <ul className="grid gap-2">
          {group.reports.map((report) => (
            <li key={report.id} className="rounded-md bg-muted/60 px-3 py-2 text-sm">
              <p>
                <span className="font-semibold">{reasonLabel(report.reason)}</span>
                <span className="text-muted-foreground">
                  {' · '}
                  <time dateTime={report.createdAt}>{relativeTime(report.createdAt)}</time>
                </span>
              </p>
              {report.comment && <p className="mt-1 whitespace-pre-wrap break-words">{report.comment}</p>}
              {post && report.postText !== null && report.postText !== post.content && (
                <figure className="mt-1">
                  <figcaption className="text-muted-foreground">The post said, when reported:</figcaption>
                  <blockquote className="mt-0.5 whitespace-pre-wrap break-words border-l-2 border-border pl-2">{report.postText}</blockquote>
                </figure>
              )}
              {report.messages.length > 0 && <ReportedMessages messages={report.messages} />}
            </li>
          ))}
        </ul>
      </section>
      <section aria-label={`History of ${what}`} className="text-sm">
        <h3 className="font-medium">History</h3>
        {history.earlierReports === 0 && history.actions.length === 0 ? (
          <p className="text-muted-foreground">No earlier reports or actions.</p>
        ) : (
          <>
            {history.earlierReports > 0 && <p className="text-muted-foreground">{plural(history.earlierReports, 'earlier report')}</p>}
            {history.actions.length > 0 && (
              <ol className="mt-1 divide-y divide-border rounded-md border border-border">
                {history.actions.map((entry) => (
                  <LogEntryItem key={entry.id} entry={entry} className="px-3 py-2" />
                ))}
              </ol>
            )}
          </>
        )}
      </section>
      <ModerationActions
        member={member}
        postId={post?.id}
        reportId={group.id}
        suspended={Boolean(member.suspendedUntil)}
        label={`Actions on ${what}`}
      />
      <Link href={`/moderation/members/${member.id}`} className="justify-self-start text-sm text-primary hover:underline">
        Invite tree of {handle}
      </Link>
    </article>
  )
}

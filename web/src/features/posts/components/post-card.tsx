import * as React from 'react'
import { Link, useLocation } from 'wouter'
import {
  Bookmark,
  Hash,
  Heart,
  MessageCircle,
  MoreHorizontal,
  Pencil,
  Pin,
  Repeat2,
  Share,
  ShieldAlert,
  Trash2,
  TriangleAlert,
} from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Avatar } from '@/components/ui/avatar'
import { toast } from '@/components/ui/use-toast'
import { cn, relativeTime } from '@/lib/utils'
import type { Post } from '@/lib/types'
import { MemberMenu } from '@/features/safety'
import { DEFAULT_LIKE_ERROR, useToggleLike } from '../api/toggle-like'
import { useToggleRepost } from '../api/toggle-repost'
import { useDeletePost } from '../api/delete-post'
import { useToggleBookmark } from '../api/toggle-bookmark'
import { useExpandWarnings } from '../api/set-expand-warnings'
import { useSetQuoting } from '../api/set-quoting'
import { useDetachQuote } from '../api/detach-quote'
import { useCompose } from './compose-provider'
import type { HighlightTerm } from '../lib/highlight'
import { EditPostDialog } from './edit-post-dialog'
import { PostContent } from './post-content'
import { PostHistoryDialog } from './post-history-dialog'
import { PostImages } from './post-images'
import { PostPoll } from './post-poll'
import { LinkCard } from './link-card'
import { QuotedPost } from './quoted-post'
import { RepostMenu } from './repost-menu'
import { OwnPostMenu } from './own-post-menu'
import { useTogglePin } from '../api/toggle-pin'

interface PostCardProps {
  post: Post
  currentUserId?: number
  /** The like failure text: profile lists say "Failed to like post. Please try again." */
  likeErrorDescription?: string
  /** The thread's main post reads larger. */
  emphasis?: boolean
  /** In a thread the parent is on screen already: no "Replying to a post" line. */
  hideReplyContext?: boolean
  /** One of the first posts on screen: its images load at once, not lazily. */
  priority?: boolean
  /** A search's words, marked in the text. */
  highlight?: readonly HighlightTerm[]
  /** Shown among a profile's pinned posts: labelled "Pinned". */
  pinnedLabel?: boolean
}

async function sharePost(postId: number) {
  const url = `${window.location.origin}/post/${postId}`
  try {
    await navigator.clipboard.writeText(url)
    toast({ title: 'Link copied', description: 'The link to this post is on your clipboard.' })
  } catch {
    toast({ title: 'Error', description: 'Could not copy the link.', variant: 'destructive' })
  }
}

/** A count beside its action button; the button's name already says it, so it is hidden from screen readers. */
function Count({ value, className }: { value: number; className?: string }) {
  return (
    <span aria-hidden="true" className={cn('-ml-1 mr-2 min-w-4 text-sm tabular-nums text-muted-foreground', className)}>
      {value}
    </span>
  )
}

/**
 * Where the member stands with the post's author, from the card itself (so its menu opens whole at
 * once): muting while their mute has not ended; never blocking (such a card is unavailable).
 * Undefined for a card that does not say (the menu then asks for the profile).
 */
function authorRelation(post: Post, now: number = Date.now()) {
  if (post.authorMute === undefined) return undefined
  const mute = post.authorMute
  const isMuting = mute !== null && (mute.until == null || new Date(mute.until).getTime() > now)
  return { isMuting, isBlocking: false }
}

/** Within the hour of posting, when the author may edit (the server checks again). */
function inEditWindow(post: Post, now: number = Date.now()): boolean {
  return post.editableUntil != null && now < new Date(post.editableUntil).getTime()
}

/** A poll with votes stays as it was voted on. */
const hasVotes = (post: Post) => Object.values(post.pollVotes).some((voters) => voters.length > 0)

const NO_EDIT_AFTER_VOTES = "Posts with votes can't be edited"

const actionClass =
  'inline-flex size-9 items-center justify-center rounded-full text-sm text-muted-foreground transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50'

/** A deleted post where a thread still needs it (its replies point at it): no content, no actions. */
function DeletedPostCard() {
  return (
    <article aria-label="Deleted post" className="border-b border-border bg-muted/40 px-4 py-3">
      <p className="text-sm italic text-muted-foreground">This post was deleted</p>
    </article>
  )
}

/** A post whose author is blocked (either way) or suspended: neither author nor content. */
function UnavailablePostCard() {
  return (
    <article aria-label="Unavailable post" className="border-b border-border bg-muted/40 px-4 py-3">
      <p className="text-sm italic text-muted-foreground">Post unavailable</p>
    </article>
  )
}

export function PostCard(props: PostCardProps) {
  const shown = props.post
  if (shown.isUnavailable || shown.repostOf?.isUnavailable) return <UnavailablePostCard />
  if ((shown.repostOf ?? shown).isDeleted) return <DeletedPostCard />
  return <LivePostCard {...props} />
}

function LivePostCard({
  post: shown,
  currentUserId,
  likeErrorDescription = DEFAULT_LIKE_ERROR,
  emphasis,
  hideReplyContext,
  priority,
  highlight,
  pinnedLabel,
}: PostCardProps) {
  const [, navigate] = useLocation()
  // A repost shows the original; every action applies to the original.
  const post = shown.repostOf ?? shown
  const like = useToggleLike(post.id, likeErrorDescription)
  const repost = useToggleRepost(post.id)
  const bookmark = useToggleBookmark(post.id)
  const remove = useDeletePost()
  const pin = useTogglePin(post.id)
  const quoting = useSetQuoting(post.id)
  const detach = useDetachQuote()
  const { openCompose } = useCompose()
  const [editing, setEditing] = React.useState(false)
  const [showingHistory, setShowingHistory] = React.useState(false)
  const isOwn = currentUserId !== undefined && post.author.id === currentUserId
  const isBookmarked = post.isBookmarked ?? false
  // A removed post stays on its author's screens to be seen, not passed on.
  const canInteract = !post.isRemoved
  const hasPoll = post.pollOptions.length > 0
  // The author may always quote their own post; others while quoting is on.
  const canQuote = isOwn || (post.quotesAllowed ?? true)
  // On someone's quote of the member's own post, its menu offers to take the post out of the quote.
  const quoted = post.quoteOf
  const quotesMine = currentUserId !== undefined && !isOwn && quoted != null && quoted.author.id === currentUserId
  // The edit action stays in its place while the window is open; with votes it says why it does nothing.
  const showsEdit = isOwn && canInteract && inEditWindow(post)
  const editBlocked = hasVotes(post)
  const editBlockedId = `post-${shown.id}-no-edit`
  const confirmDelete = () => {
    if (window.confirm('Delete this post?')) remove.mutate(post.id)
  }
  // Behind its content warning until the reader opens it, or open from the start by the member's setting.
  const warning = post.spoilerText ?? null
  const expandAll = useExpandWarnings()
  const [opened, setOpened] = React.useState<boolean | null>(null)
  const expanded = warning === null || (opened ?? expandAll)
  const bodyId = `post-${shown.id}-body`

  function handleCardClick(event: React.MouseEvent<HTMLElement>) {
    const target = event.target as HTMLElement
    // Clicks in the card's menu and dialogs reach here through their portals: not the card's.
    if (!event.currentTarget.contains(target)) return
    if (target.closest('button, a, [role="button"], input, textarea')) return
    if (window.getSelection()?.toString()) return
    navigate(`/post/${post.id}`)
  }

  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a mouse shortcut only; the post's time is the link keyboards and screen readers use
    <article
      aria-labelledby={`post-${shown.id}-author`}
      onClick={handleCardClick}
      className={cn('cursor-pointer border-b border-border px-4 py-3 transition-colors hover:bg-muted/40', emphasis && 'cursor-default hover:bg-transparent')}
    >
      {pinnedLabel && (
        <p className="mb-1 flex items-center gap-1.5 pl-8 text-xs font-medium text-muted-foreground">
          <Pin className="size-3.5" aria-hidden="true" />
          Pinned
        </p>
      )}
      {shown.viaTag && (
        // In the Friends feed because the member follows this tag, not its author.
        <p className="mb-1 flex items-center gap-1.5 pl-8 text-xs font-medium text-muted-foreground">
          <Hash className="size-3.5" aria-hidden="true" />
          <Link href={`/tag/${encodeURIComponent(shown.viaTag)}`} className="hover:underline" aria-label={`Followed tag #${shown.viaTag}`}>
            {shown.viaTag}
          </Link>
        </p>
      )}
      {shown.repostOf && (
        <p className="mb-1 flex items-center gap-1.5 pl-8 text-xs font-medium text-muted-foreground">
          <Repeat2 className="size-3.5" aria-hidden="true" />
          <Link href={`/profile/${shown.author.username}`} className="hover:underline">
            {shown.author.displayName} reposted
          </Link>
        </p>
      )}
      <div className="flex gap-3">
        <Link href={`/profile/${post.author.username}`} aria-label={`${post.author.displayName}'s profile`} className="shrink-0 self-start rounded-full">
          <Avatar name={post.author.displayName} src={post.author.profileImageUrl} size={40} />
        </Link>
        <div className="min-w-0 flex-1">
          {/* 24 px lines: the author and "Replying to" links are tap targets of at least 24 px (WCAG 2.5.8) */}
          <div className="flex flex-wrap items-baseline gap-x-1.5 text-sm leading-6">
            <Link
              id={`post-${shown.id}-author`}
              href={`/profile/${post.author.username}`}
              className="truncate font-semibold hover:underline"
            >
              {post.author.displayName}
            </Link>
            <span className="truncate text-muted-foreground">@{post.author.username}</span>
            <span aria-hidden="true" className="text-muted-foreground">
              ·
            </span>
            <Link href={`/post/${post.id}`} className="text-muted-foreground hover:underline">
              <time dateTime={post.createdAt}>{relativeTime(post.createdAt)}</time>
            </Link>
            {post.editedAt && (
              <>
                <span aria-hidden="true" className="text-muted-foreground">
                  ·
                </span>
                <button
                  type="button"
                  className="rounded text-muted-foreground hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  aria-haspopup="dialog"
                  onClick={() => setShowingHistory(true)}
                >
                  Edited <time dateTime={post.editedAt}>{relativeTime(post.editedAt)}</time>
                </button>
              </>
            )}
          </div>
          {post.replyToId !== null && !emphasis && !hideReplyContext && (
            <p className="text-xs text-muted-foreground">
              <Link href={`/post/${post.replyToId}`} className="inline-flex min-h-6 items-center hover:underline">
                Replying to a post
              </Link>
            </p>
          )}
          {warning !== null && (
            <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-border bg-muted/60 px-3 py-2">
              <p className="flex min-w-0 flex-1 basis-40 items-start gap-1.5 font-medium [overflow-wrap:anywhere]">
                <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
                <span>
                  <span className="sr-only">Content warning: </span>
                  {warning}
                </span>
              </p>
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="shrink-0"
                aria-expanded={expanded}
                aria-controls={bodyId}
                onClick={() => setOpened(!expanded)}
              >
                {expanded ? 'Hide post' : 'Show post'}
              </Button>
            </div>
          )}
          <div id={bodyId} hidden={!expanded} className={cn('mt-1', emphasis ? 'text-lg' : 'text-[15px]')}>
            <PostContent text={post.content} entities={post.entities} highlight={highlight} />
          </div>
          <PostImages post={post} authorName={post.author.displayName} priority={priority} blurred={!expanded} />
          {hasPoll && expanded && <PostPoll post={post} currentUserId={currentUserId} />}
          {/* Behind the content warning too, like the text it previews */}
          {post.card && expanded && <LinkCard postId={post.id} card={post.card} canRemove={isOwn && canInteract} />}
          {expanded && <QuotedPost quote={post} />}
          {/* The app it was written from, on the thread's own post (as Mastodon shows it) */}
          {emphasis && post.application && <p className="mt-2 text-sm text-muted-foreground">via {post.application.name}</p>}
          {post.isRemoved && (
            <p className="mt-2 flex items-center gap-1.5 rounded-md bg-destructive/15 px-2 py-1 text-sm font-medium">
              <ShieldAlert className="size-4 shrink-0 text-destructive" aria-hidden="true" /> Removed by moderators
            </p>
          )}
          {/* No gap on a phone: the six actions fit one line at 360 px */}
          <div className="-ml-2 mt-2 flex flex-wrap items-center gap-0 sm:gap-2">
            {canInteract && (
              <>
                <button
                  type="button"
                  className={actionClass}
                  aria-label={`Reply (${post.replyCount})`}
                  onClick={() => openCompose({ replyTo: post })}
                >
                  <MessageCircle className="size-4" aria-hidden="true" />
                </button>
                <Count value={post.replyCount} />
                <RepostMenu
                  isReposted={post.isReposted}
                  canQuote={canQuote}
                  onRepost={() => repost.mutate(!post.isReposted)}
                  onQuote={() => openCompose({ quoteOf: post })}
                  quoting={isOwn ? { allowed: post.quotesAllowed ?? true, onChange: (allowed) => quoting.mutate(allowed) } : undefined}
                  trigger={
                    <button
                      type="button"
                      className={cn(actionClass, post.isReposted && 'text-repost')}
                      aria-label={`${post.isReposted ? 'Undo repost' : 'Repost'} (${post.repostCount})`}
                    >
                      <Repeat2 className="size-4" aria-hidden="true" />
                    </button>
                  }
                />
                <Count value={post.repostCount} className={post.isReposted ? 'text-repost' : undefined} />
                <button
                  type="button"
                  className={cn(actionClass, post.isLiked && 'text-like')}
                  aria-label={`${post.isLiked ? 'Unlike' : 'Like'} (${post.likeCount})`}
                  aria-pressed={post.isLiked}
                  onClick={() => like.mutate(!post.isLiked)}
                >
                  <Heart className={cn('size-4', post.isLiked && 'fill-current')} aria-hidden="true" />
                </button>
                <Count value={post.likeCount} className={post.isLiked ? 'text-like' : undefined} />
                <button
                  type="button"
                  className={cn(actionClass, isBookmarked && 'text-primary')}
                  aria-label="Bookmark"
                  aria-pressed={isBookmarked}
                  onClick={() => bookmark.mutate(!isBookmarked)}
                >
                  <Bookmark className={cn('size-4', isBookmarked && 'fill-current')} aria-hidden="true" />
                </button>
                <button type="button" className={actionClass} aria-label="Share" onClick={() => void sharePost(post.id)}>
                  <Share className="size-4" aria-hidden="true" />
                </button>
              </>
            )}
            {/* On a phone the author's Edit and Delete are in More actions, so the actions keep one line. */}
            {showsEdit && !editBlocked && (
              <button
                type="button"
                className={cn(actionClass, 'ml-auto max-sm:hidden')}
                aria-label="Edit post"
                aria-haspopup="dialog"
                onClick={() => setEditing(true)}
              >
                <Pencil className="size-4" aria-hidden="true" />
              </button>
            )}
            {showsEdit && editBlocked && (
              // Focusable (not `disabled`), so keyboards and screen readers reach the reason too.
              <button
                type="button"
                className={cn(actionClass, 'ml-auto cursor-not-allowed opacity-50 hover:bg-transparent max-sm:hidden')}
                aria-label="Edit post"
                aria-disabled="true"
                aria-describedby={editBlockedId}
                title={NO_EDIT_AFTER_VOTES}
                onClick={() => toast({ description: NO_EDIT_AFTER_VOTES })}
              >
                <Pencil className="size-4" aria-hidden="true" />
                <span id={editBlockedId} className="sr-only">
                  {NO_EDIT_AFTER_VOTES}
                </span>
              </button>
            )}
            {isOwn && (
              <button
                type="button"
                className={cn(actionClass, !showsEdit && 'ml-auto', 'hover:text-destructive', canInteract && 'max-sm:hidden')}
                aria-label="Delete post"
                disabled={remove.isPending}
                onClick={confirmDelete}
              >
                <Trash2 className="size-4" aria-hidden="true" />
              </button>
            )}
            {isOwn && canInteract && (
              <OwnPostMenu
                pinned={post.pinned ?? false}
                onPinChange={(on) => pin.mutate(on)}
                edit={showsEdit ? (editBlocked ? { blocked: NO_EDIT_AFTER_VOTES } : { onEdit: () => setEditing(true) }) : undefined}
                onDelete={confirmDelete}
                trigger={
                  <button type="button" className={cn(actionClass, 'max-sm:ml-auto')} aria-label="More actions">
                    <MoreHorizontal className="size-4" aria-hidden="true" />
                  </button>
                }
              />
            )}
            {currentUserId !== undefined && !isOwn && (
              // Drawn as the server draws it in the first cards (crates/server/src/web/cards.rs): the menu is made on the first press.
              <MemberMenu
                member={post.author}
                postId={post.id}
                relation={authorRelation(post)}
                postActions={
                  quotesMine && quoted
                    ? [{ label: 'Remove my post from this quote', onSelect: () => detach.mutate({ postId: quoted.id, quoteId: post.id }) }]
                    : undefined
                }
                trigger={
                  <button type="button" className={cn(actionClass, 'ml-auto')} aria-label="More actions">
                    <MoreHorizontal className="size-4" aria-hidden="true" />
                  </button>
                }
              />
            )}
          </div>
        </div>
      </div>
      {isOwn && <EditPostDialog post={post} open={editing} onOpenChange={setEditing} />}
      {post.editedAt && <PostHistoryDialog post={post} open={showingHistory} onOpenChange={setShowingHistory} />}
    </article>
  )
}

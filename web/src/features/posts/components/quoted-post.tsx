import { Link } from 'wouter'
import { TriangleAlert } from 'lucide-react'
import { Avatar } from '@/components/ui/avatar'
import { cn } from '@/lib/utils'
import type { Post } from '@/lib/types'

const boxClass = 'mt-2 rounded-lg border border-border'

/** A quote's place for the post it can no longer show. */
function QuoteNotice({ children }: { children: string }) {
  return <p className={cn(boxClass, 'bg-muted/40 px-3 py-2 text-sm italic text-muted-foreground')}>{children}</p>
}

/**
 * The post a quote quotes, inside the quote's card (or under the composer's text): its author,
 * text (or its content warning) and first image, linking to its thread. "Post unavailable" when
 * the reader may not see it or it is gone; "Removed by the author" when its author detached it.
 */
export function QuotedPost({ quote, linked = true }: { quote: Pick<Post, 'quoteOf' | 'quoteDetached'>; linked?: boolean }) {
  if (quote.quoteDetached) return <QuoteNotice>Removed by the author</QuoteNotice>
  const quoted = quote.quoteOf
  if (!quoted) return null
  if (quoted.isUnavailable || quoted.isDeleted || quoted.isRemoved) return <QuoteNotice>Post unavailable</QuoteNotice>
  const image = quoted.images[0]
  const body = (
    <>
      <span className="sr-only">Quoted post: </span>
      <span className="flex items-center gap-1.5 text-sm">
        <Avatar name={quoted.author.displayName} src={quoted.author.profileImageUrl} size={20} />
        <span className="truncate font-semibold">{quoted.author.displayName}</span>
        <span className="truncate text-muted-foreground">@{quoted.author.username}</span>
      </span>
      <span className="mt-1 flex gap-3">
        {quoted.spoilerText ? (
          // Behind its warning here too: the box shows the warning, not the post.
          <span className="flex min-w-0 flex-1 items-start gap-1.5 text-sm font-medium [overflow-wrap:anywhere]">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
            <span>
              <span className="sr-only">Content warning: </span>
              {quoted.spoilerText}
            </span>
          </span>
        ) : (
          <span className="line-clamp-3 min-w-0 flex-1 whitespace-pre-line text-sm [overflow-wrap:anywhere]">{quoted.content}</span>
        )}
        {image && !quoted.spoilerText && (
          <img
            src={image.url}
            alt={image.alt ?? `Image from ${quoted.author.displayName}'s post`}
            loading="lazy"
            className="size-16 shrink-0 rounded-md object-cover"
          />
        )}
      </span>
    </>
  )
  if (!linked) return <div className={cn(boxClass, 'block px-3 py-2')}>{body}</div>
  return (
    <Link
      href={`/post/${quoted.id}`}
      className={cn(boxClass, 'block px-3 py-2 transition-colors hover:bg-muted/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring')}
    >
      {body}
    </Link>
  )
}

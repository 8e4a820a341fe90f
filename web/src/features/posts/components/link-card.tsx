import { X } from 'lucide-react'
import type { Post } from '@/lib/types'
import { useRemoveCard } from '../api/remove-card'

type Card = NonNullable<Post['card']>

interface LinkCardProps {
  postId: number
  card: Card
  /** The post's author: offered "Remove preview". */
  canRemove: boolean
}

/** The site's name, else the link's host (what the reader is about to visit). */
function siteOf(card: Card): string {
  if (card.siteName) return card.siteName
  try {
    return new URL(card.url).host
  } catch {
    return card.url
  }
}

/**
 * The preview card of a post's first link: the page's image, site, title and description, the
 * whole card a link to the page (a stranger's page: no referrer, no credit for ranking). The image
 * box has a fixed shape, so nothing moves when it loads; its alt is empty, as the title says it.
 */
export function LinkCard({ postId, card, canRemove }: LinkCardProps) {
  const remove = useRemoveCard(postId)
  return (
    <div className="relative mt-3">
      <a
        href={card.url}
        target="_blank"
        rel="noopener noreferrer nofollow ugc"
        className="block overflow-hidden rounded-xl border border-border transition-colors hover:bg-muted/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        {card.imageUrl && (
          <img src={card.imageUrl} alt="" loading="lazy" decoding="async" className="aspect-[1.91/1] w-full border-b border-border bg-muted object-cover" />
        )}
        <span className="block px-3 py-2">
          <span className="block truncate text-xs text-muted-foreground">{siteOf(card)}</span>
          <span className="line-clamp-2 block font-medium [overflow-wrap:anywhere]">{card.title}</span>
          {card.description && (
            <span className="mt-0.5 line-clamp-2 block text-sm text-muted-foreground [overflow-wrap:anywhere]">{card.description}</span>
          )}
        </span>
      </a>
      {canRemove && (
        <button
          type="button"
          className="absolute right-2 top-2 inline-flex size-8 items-center justify-center rounded-full border border-border bg-background/90 text-muted-foreground shadow-sm hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
          aria-label="Remove preview"
          title="Remove preview"
          disabled={remove.isPending}
          onClick={() => remove.mutate()}
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      )}
    </div>
  )
}

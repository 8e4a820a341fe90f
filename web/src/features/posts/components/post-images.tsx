import * as React from 'react'
import type { Post, PostImage } from '@/lib/types'
import { VARIANT_WIDTHS, variantSrcSet, variantUrl } from '@/lib/image-variants'
import { cn } from '@/lib/utils'
import { ImageLightbox } from './image-lightbox'

interface PostImagesProps {
  post: Pick<Post, 'imageUrls' | 'images'>
  authorName: string
  /** At the top of a list: likely the largest thing on the first screen, so fetch it first. */
  priority?: boolean
  /** Behind a content warning not yet opened: drawn blurred, out of reach and unread until it is. */
  blurred?: boolean
}

// How wide each box is drawn, for the browser to pick a copy from `srcset`: the feed column
// (at most 672 px from 1024 px on) less the card's padding and avatar (86 px); half that, less
// the gap, in the 2×2 grid. Between 768 and 1024 px a sidebar makes the column narrower than
// this says, which only picks a copy a little larger than needed.
const SIZES_ALONE = '(min-width: 1024px) 586px, calc(100vw - 86px)'
const SIZES_IN_GRID = '(min-width: 1024px) 291px, calc(50vw - 45px)'

/** A post's images with their descriptions; a post from before `images` existed has only URLs. */
export function imagesOf(post: Pick<Post, 'imageUrls' | 'images'>): PostImage[] {
  return post.images ?? post.imageUrls.map((url) => ({ url, alt: null, width: null, height: null }))
}

/**
 * Up to four images in a grid. Each box has a fixed shape (3:2 alone, squares in a grid) and the
 * image is cropped into it: nothing moves when it loads. The boxes show the server's display
 * copies (`srcset`); each is a link to the full image, which opens in the lightbox (a modified
 * click still opens it in a new tab, as the link says).
 */
export function PostImages({ post, authorName, priority = false, blurred = false }: PostImagesProps) {
  const shown = imagesOf(post).slice(0, 4)
  const [open, setOpen] = React.useState<number | null>(null)
  const opener = React.useRef<number>(0)
  const links = React.useRef<(HTMLAnchorElement | null)[]>([])
  if (shown.length === 0) return null
  const alone = shown.length === 1
  // With no description, position and author are what tells the pictures apart.
  const altOf = (index: number) => shown[index]?.alt ?? `Image ${index + 1} of ${shown.length} posted by ${authorName}`

  function openAt(event: React.MouseEvent, index: number) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    opener.current = index
    setOpen(index)
  }

  return (
    <>
      <div
        className={cn('mt-3 grid gap-1 overflow-hidden rounded-xl border border-border', !alone && 'grid-cols-2')}
        inert={blurred || undefined}
        aria-hidden={blurred || undefined}
        data-blurred={blurred || undefined}
      >
        {shown.map((image, index) => (
          <a
            key={image.url}
            ref={(element) => {
              links.current[index] = element
            }}
            href={image.url}
            target="_blank"
            rel="noopener noreferrer"
            className="block"
            onClick={(event) => openAt(event, index)}
          >
            <img
              src={variantUrl(image.url, VARIANT_WIDTHS[1])}
              srcSet={variantSrcSet(image.url)}
              sizes={alone ? SIZES_ALONE : SIZES_IN_GRID}
              alt={altOf(index)}
              width={600}
              height={alone ? 400 : 600}
              loading={priority ? 'eager' : 'lazy'}
              fetchPriority={priority && index === 0 ? 'high' : 'auto'}
              decoding="async"
              className={cn(
                'h-auto w-full bg-muted object-cover',
                alone ? 'aspect-[3/2]' : 'aspect-square',
                // Scaled up as well, so the blur's faded edge stays outside the box.
                blurred && 'scale-110 blur-2xl',
              )}
            />
          </a>
        ))}
      </div>
      <ImageLightbox
        images={shown}
        index={open}
        onIndexChange={setOpen}
        onClose={() => setOpen(null)}
        altOf={altOf}
        onCloseAutoFocus={(event) => {
          event.preventDefault()
          links.current[opener.current]?.focus()
        }}
      />
    </>
  )
}

import { VARIANT_WIDTHS, variantSrcSet, variantUrl } from '@/lib/image-variants'
import { cn } from '@/lib/utils'

interface PostImagesProps {
  urls: string[]
  authorName: string
  /** At the top of a list: likely the largest thing on the first screen, so fetch it first. */
  priority?: boolean
}

// How wide each box is drawn, for the browser to pick a copy from `srcset`: the feed column
// (at most 672 px from 1024 px on) less the card's padding and avatar (86 px); half that, less
// the gap, in the 2×2 grid. Between 768 and 1024 px a sidebar makes the column narrower than
// this says, which only picks a copy a little larger than needed.
const SIZES_ALONE = '(min-width: 1024px) 586px, calc(100vw - 86px)'
const SIZES_IN_GRID = '(min-width: 1024px) 291px, calc(50vw - 45px)'

/**
 * Up to four images in a grid. The API gives no dimensions, so each box has a fixed shape
 * (3:2 alone, squares in a grid) and the image is cropped into it: nothing moves when it loads.
 * The boxes show the server's display copies (`srcset`); the link opens the full image.
 */
export function PostImages({ urls, authorName, priority = false }: PostImagesProps) {
  const shown = urls.slice(0, 4)
  if (shown.length === 0) return null
  const alone = shown.length === 1
  return (
    <div className={cn('mt-3 grid gap-1 overflow-hidden rounded-xl border border-border', !alone && 'grid-cols-2')}>
      {shown.map((url, index) => (
        <a key={url} href={url} target="_blank" rel="noopener noreferrer" className="block">
          {/* eslint-disable-next-line jsx-a11y/img-redundant-alt -- with no description, position and author are what tells the pictures apart */}
          <img
            src={variantUrl(url, VARIANT_WIDTHS[1])}
            srcSet={variantSrcSet(url)}
            sizes={alone ? SIZES_ALONE : SIZES_IN_GRID}
            alt={`Image ${index + 1} of ${shown.length} posted by ${authorName}`}
            width={600}
            height={alone ? 400 : 600}
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority && index === 0 ? 'high' : 'auto'}
            decoding="async"
            className={cn('h-auto w-full bg-muted object-cover', alone ? 'aspect-[3/2]' : 'aspect-square')}
          />
        </a>
      ))}
    </div>
  )
}

import { cn } from '@/lib/utils'

interface PostImagesProps {
  urls: string[]
  authorName: string
  /** At the top of a list: likely the largest thing on the first screen, so fetch it first. */
  priority?: boolean
}

/**
 * Up to four images in a grid. The API gives no dimensions, so each box has a fixed shape
 * (3:2 alone, squares in a grid) and the image is cropped into it: nothing moves when it loads.
 */
export function PostImages({ urls, authorName, priority = false }: PostImagesProps) {
  const shown = urls.slice(0, 4)
  if (shown.length === 0) return null
  return (
    <div className={cn('mt-3 grid gap-1 overflow-hidden rounded-xl border border-border', shown.length > 1 && 'grid-cols-2')}>
      {shown.map((url, index) => (
        <a key={url} href={url} target="_blank" rel="noopener noreferrer" className="block">
          <img
            src={url}
            alt={`Image ${index + 1} of ${shown.length} posted by ${authorName}`}
            width={600}
            height={shown.length === 1 ? 400 : 600}
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority && index === 0 ? 'high' : 'auto'}
            decoding="async"
            className={cn('h-auto w-full bg-muted object-cover', shown.length === 1 ? 'aspect-[3/2]' : 'aspect-square')}
          />
        </a>
      ))}
    </div>
  )
}

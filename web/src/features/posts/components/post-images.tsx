import { cn } from '@/lib/utils'

/** Up to four images in a grid; fixed boxes so nothing shifts while they load. */
export function PostImages({ urls, authorName }: { urls: string[]; authorName: string }) {
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
            height={shown.length === 1 ? 400 : 300}
            loading="lazy"
            decoding="async"
            className={cn('h-auto w-full bg-muted object-cover', shown.length === 1 ? 'aspect-[3/2]' : 'aspect-square')}
          />
        </a>
      ))}
    </div>
  )
}

import { Dialog as DialogPrimitive } from 'radix-ui'
import { ChevronLeft, ChevronRight, X } from 'lucide-react'
import type { PostImage } from '@/lib/types'
import { cn } from '@/lib/utils'

interface ImageLightboxProps {
  images: PostImage[]
  /** The image shown, or null when closed. */
  index: number | null
  onIndexChange: (index: number) => void
  onClose: () => void
  /** Each image's text for those who cannot see it (its description, or its position and author). */
  altOf: (index: number) => string
  /** Called instead of Radix's focus return: the image that opened the lightbox takes focus back. */
  onCloseAutoFocus: (event: Event) => void
}

const control =
  'inline-flex size-11 items-center justify-center rounded-full bg-black/60 text-white hover:bg-black/80 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white'

/**
 * A post's images full size, one at a time, over everything (a Radix Dialog: focus stays inside,
 * Escape closes). The arrow keys and buttons move between the post's images, wrapping around.
 */
export function ImageLightbox({ images, index, onIndexChange, onClose, altOf, onCloseAutoFocus }: ImageLightboxProps) {
  const open = index !== null
  const shown = index ?? 0
  const image = images[shown]
  const many = images.length > 1
  const move = (by: number) => onIndexChange((shown + by + images.length) % images.length)
  const description = image?.alt

  return (
    <DialogPrimitive.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/90" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          onCloseAutoFocus={onCloseAutoFocus}
          onKeyDown={(event) => {
            if (!many) return
            if (event.key === 'ArrowRight') move(1)
            else if (event.key === 'ArrowLeft') move(-1)
            else return
            event.preventDefault()
          }}
          className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 p-4 text-white outline-none"
        >
          <DialogPrimitive.Title className="sr-only">
            {many ? `Image ${shown + 1} of ${images.length}` : 'Image'}
          </DialogPrimitive.Title>
          {image && (
            <img
              key={image.url}
              src={image.url}
              alt={altOf(shown)}
              width={image.width ?? undefined}
              height={image.height ?? undefined}
              className="h-auto max-h-[calc(100dvh-10rem)] w-auto max-w-full object-contain"
            />
          )}
          {(many || description) && (
            <div className="flex max-w-2xl flex-col items-center gap-1 text-center text-sm">
              {many && (
                <p aria-hidden="true" className="tabular-nums text-white/80">
                  {shown + 1} / {images.length}
                </p>
              )}
              {/* The description is read as the image's name; shown here for everyone too. */}
              {description && (
                <p aria-hidden="true" className="max-h-24 overflow-y-auto whitespace-pre-wrap break-words">
                  {description}
                </p>
              )}
            </div>
          )}
          {many && (
            <>
              <button
                type="button"
                aria-label="Previous image"
                onClick={() => move(-1)}
                className={cn(control, 'absolute left-2 top-1/2 -translate-y-1/2 sm:left-4')}
              >
                <ChevronLeft className="size-6" aria-hidden="true" />
              </button>
              <button
                type="button"
                aria-label="Next image"
                onClick={() => move(1)}
                className={cn(control, 'absolute right-2 top-1/2 -translate-y-1/2 sm:right-4')}
              >
                <ChevronRight className="size-6" aria-hidden="true" />
              </button>
            </>
          )}
          <DialogPrimitive.Close aria-label="Close" className={cn(control, 'absolute right-2 top-2 sm:right-4 sm:top-4')}>
            <X className="size-5" aria-hidden="true" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  )
}

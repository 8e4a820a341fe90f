import { variantFor } from '@/lib/image-variants'
import { cn, initial } from '@/lib/utils'

interface AvatarProps {
  name: string
  src: string | null | undefined
  size?: number
  className?: string
}

/**
 * A round picture, or the first letter of the display name when there is none. Shows the
 * server's smallest display copy that is sharp at this size, not the full upload.
 */
export function Avatar({ name, src, size = 40, className }: AvatarProps) {
  const style = { width: size, height: size }
  if (src) {
    return (
      <img
        src={variantFor(src, size)}
        alt=""
        width={size}
        height={size}
        className={cn('shrink-0 rounded-full bg-muted object-cover', className)}
        style={style}
      />
    )
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full bg-primary/15 font-semibold text-primary',
        className,
      )}
      style={{ ...style, fontSize: size * 0.42 }}
    >
      {initial(name)}
    </span>
  )
}

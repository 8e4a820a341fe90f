import { cn } from '@/lib/utils'

/** The Murmur mark and word. */
export function Logo({ className, showWord = true }: { className?: string; showWord?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold tracking-tight', className)}>
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" className="shrink-0">
        <rect width="32" height="32" rx="8" className="fill-primary" />
        <path
          d="M8 22V10l8 7 8-7v12"
          fill="none"
          className="stroke-primary-foreground"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {showWord && <span className="text-xl">Murmur</span>}
    </span>
  )
}

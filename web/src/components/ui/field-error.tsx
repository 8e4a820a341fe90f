import { cn } from '@/lib/utils'

/** What is wrong with a field; the field names it in `aria-describedby`. */
export function FieldError({ id, children, className }: { id: string; children?: React.ReactNode; className?: string }) {
  if (!children) return null
  return (
    <p id={id} className={cn('text-sm font-medium text-destructive', className)}>
      {children}
    </p>
  )
}

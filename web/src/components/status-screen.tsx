import type * as React from 'react'
import { CheckCircle2, Loader2, XCircle } from 'lucide-react'
import { Logo } from '@/components/logo'

interface StatusScreenProps {
  status: 'loading' | 'success' | 'error'
  title: string
  message: React.ReactNode
  /** A button under the message (none while loading). */
  action?: React.ReactNode
}

/** A page of its own for a one-shot step an e-mailed link starts: working, done, or failed. */
export function StatusScreen({ status, title, message, action }: StatusScreenProps) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 text-center">
      <Logo />
      <div className="flex max-w-sm flex-col items-center gap-3 rounded-xl border border-border p-8" role="status" aria-live="polite">
        {status === 'loading' && (
          <Loader2 className="size-10 animate-spin text-primary motion-reduce:animate-none" aria-hidden="true" />
        )}
        {status === 'success' && <CheckCircle2 className="size-10 text-repost" aria-hidden="true" />}
        {status === 'error' && <XCircle className="size-10 text-destructive" aria-hidden="true" />}
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="break-words text-muted-foreground">{message}</p>
        {action}
      </div>
    </main>
  )
}

import { Toast as ToastPrimitive } from 'radix-ui'
import { X } from 'lucide-react'
import { cn } from '@/lib/utils'
import { dismissToast, useToasts } from './use-toast'

export const TOAST_DURATION_MS = 5000

/** Radix toasts: 5000 ms, swipe right past 50 px to dismiss, F8 focuses the region. */
export function Toaster() {
  const toasts = useToasts()
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id)
          }}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-8 shadow-lg transition-all data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
            t.variant === 'destructive'
              ? 'border-destructive bg-destructive text-white'
              : 'border-border bg-background text-foreground',
          )}
        >
          <div className="grid gap-1">
            {t.title && <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>}
            {t.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">{t.description}</ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <X className="size-4" aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed bottom-20 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none sm:bottom-0 sm:max-w-[420px]" />
    </ToastPrimitive.Provider>
  )
}

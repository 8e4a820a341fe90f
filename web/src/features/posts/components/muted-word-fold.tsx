import * as React from 'react'
import { Button } from '@/components/ui/button'

/**
 * A post holding a word the reader mutes (`hiddenByMutedWord`: in threads and on profiles),
 * folded to one line until they ask to see it: a conversation keeps its shape, a profile shows
 * what the member wrote.
 */
export function MutedWordFold({ children }: { children: React.ReactNode }) {
  const [shown, setShown] = React.useState(false)
  const card = React.useRef<HTMLDivElement>(null)
  React.useEffect(() => {
    // The Show button is gone once pressed: the post it opened takes the focus.
    if (shown) card.current?.focus()
  }, [shown])
  if (!shown) {
    return (
      <div className="flex items-center gap-1 border-b border-border px-4 py-3 text-sm text-muted-foreground">
        <span>Hidden by a muted word —</span>
        <Button variant="link" size="sm" className="h-auto p-0" onClick={() => setShown(true)}>
          show
        </Button>
      </div>
    )
  }
  return (
    <div ref={card} tabIndex={-1} className="outline-none" data-unfolded="">
      {children}
    </div>
  )
}

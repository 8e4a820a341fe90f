import * as React from 'react'
import { Button } from '@/components/ui/button'
import type { Post } from '@/lib/types'
import { PostCard } from './post-card'

/**
 * A parent or reply in a thread: a post holding a word the reader mutes (`hiddenByMutedWord`)
 * is folded to one line until they ask to see it, so the conversation keeps its shape.
 */
export function ThreadPost({ post, currentUserId }: { post: Post; currentUserId?: number }) {
  const [shown, setShown] = React.useState(false)
  const card = React.useRef<HTMLDivElement>(null)
  const folded = post.hiddenByMutedWord === true && !shown
  React.useEffect(() => {
    // The Show button is gone once pressed: the post it opened takes the focus.
    if (shown) card.current?.focus()
  }, [shown])
  if (folded) {
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
    <div ref={card} tabIndex={-1} className="outline-none" data-unfolded={shown ? '' : undefined}>
      <PostCard post={post} currentUserId={currentUserId} hideReplyContext />
    </div>
  )
}

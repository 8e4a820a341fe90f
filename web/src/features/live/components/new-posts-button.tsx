import * as React from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { ArrowUp } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { usePrefersReducedMotion } from '@/lib/use-prefers-reduced-motion'
import { refetchFeedFirstPage, useFeedPostIds } from '@/features/posts'
import { countUnloaded, newPostsAnnouncement, showNewPostsLabel } from '../lib/new-posts'
import { useNewFeedPosts } from './live-provider'

/**
 * "Show N new posts" over the top of the Friends feed, kept in sight below the title bar while
 * the reader scrolls, for posts the stream announced that the feed has not loaded. It takes no
 * room of its own, so nothing the reader is looking at moves when it appears.
 */
export function NewPostsButton() {
  const queryClient = useQueryClient()
  const { postIds, clear } = useNewFeedPosts()
  const loaded = useFeedPostIds()
  const reducedMotion = usePrefersReducedMotion()
  const top = React.useRef<HTMLDivElement>(null)
  const count = loaded ? countUnloaded(postIds, loaded) : 0

  // Said once as the button appears, not again as more posts come.
  const [announcement, setAnnouncement] = React.useState('')
  const [shown, setShown] = React.useState(false)
  if (shown !== count > 0) {
    setShown(count > 0)
    setAnnouncement(count > 0 ? newPostsAnnouncement(count) : '')
  }

  function showNewPosts() {
    clear()
    void refetchFeedFirstPage(queryClient)
    window.scrollTo({ top: 0, behavior: reducedMotion ? 'auto' : 'smooth' })
    // The button goes away: keyboard focus stays at the top of the feed rather than falling to the page.
    top.current?.focus({ preventScroll: true })
  }

  return (
    // At rest the button sits on the line above the first post, covering none of its words; once
    // stuck it stays 8 px below the title bar (the top bar's 7rem on phones, 3.5rem on large
    // screens, plus half the button's 2.25rem and the 8 px).
    <div ref={top} tabIndex={-1} className="sticky top-[8.625rem] z-10 h-0 outline-none lg:top-[5.125rem]">
      <div aria-live="polite" className="sr-only">
        {announcement}
      </div>
      {count > 0 && (
        <div className="pointer-events-none flex -translate-y-1/2 justify-center">
          <Button size="sm" className="pointer-events-auto rounded-full shadow-md" onClick={showNewPosts}>
            <ArrowUp aria-hidden="true" /> {showNewPostsLabel(count)}
          </Button>
        </div>
      )}
    </div>
  )
}

import * as React from 'react'
import { Button } from '@/components/ui/button'
import type { Message } from '@/lib/types'
import { MessageItem } from './message-item'

/** A message within this long after the author's previous one goes under it, without their name again. */
const RUN_MS = 5 * 60_000
/** How near the top (px) the reader scrolls before older messages load. */
const LOAD_OLDER_AT = 200
/** How near the bottom (px) counts as reading the newest: new messages then scroll into view. */
const AT_BOTTOM = 80

function startsRun(message: Message, before: Message | undefined): boolean {
  if (!before || before.author?.id !== message.author?.id || !message.author) return true
  return new Date(message.createdAt).getTime() - new Date(before.createdAt).getTime() > RUN_MS
}

interface Props {
  /** Oldest first. */
  messages: Message[]
  memberId: number
  hasOlder: boolean
  loadingOlder: boolean
  /** The messages are being read again (a live change); older ones wait until that is done. */
  refreshing: boolean
  /** Loading older ones failed: they load again only when the reader asks. */
  olderFailed: boolean
  /** Stable across renders. */
  loadOlder: () => void
  /** Shown when there is no message yet. */
  empty: React.ReactNode
}

/**
 * The conversation's messages in a scrolling pane, the newest at the bottom. It opens at the
 * bottom; scrolling up near the top (or the button there) loads older ones, and the reader's
 * place is kept when they arrive above. A new message scrolls into view when the reader is at
 * the bottom or wrote it.
 */
export function MessageList({ messages, memberId, hasOlder, loadingOlder, refreshing, olderFailed, loadOlder, empty }: Props) {
  const paneRef = React.useRef<HTMLDivElement>(null)
  const seen = React.useRef<{ oldest: number; newest: number; height: number; top: number; atBottom: boolean } | null>(null)

  const oldest = messages[0]?.id ?? 0
  const newestMessage = messages.at(-1)
  const newest = newestMessage?.id ?? 0
  const newestIsOwn = newestMessage?.author?.id === memberId

  const remember = React.useCallback(() => {
    const pane = paneRef.current
    if (!pane || !seen.current) return
    seen.current.height = pane.scrollHeight
    seen.current.top = pane.scrollTop
    seen.current.atBottom = pane.scrollHeight - pane.scrollTop - pane.clientHeight <= AT_BOTTOM
  }, [])

  React.useLayoutEffect(() => {
    const pane = paneRef.current
    if (!pane) return
    const before = seen.current
    if (!before || before.newest === 0) {
      pane.scrollTop = pane.scrollHeight
    } else if (newest !== before.newest && (before.atBottom || newestIsOwn)) {
      pane.scrollTop = pane.scrollHeight
    } else if (oldest !== before.oldest) {
      // Older messages arrived above: what the reader was looking at stays where it was.
      pane.scrollTop = before.top + (pane.scrollHeight - before.height)
    }
    seen.current = { oldest, newest, height: 0, top: 0, atBottom: true }
    remember()
  }, [oldest, newest, newestIsOwn, remember])

  const scrolled = () => {
    remember()
    const pane = paneRef.current
    if (pane && pane.scrollTop < LOAD_OLDER_AT && hasOlder && !loadingOlder && !refreshing) loadOlder()
  }
  // A reading again that overlaps loading older ones replaces it, and a reader left at the top
  // scrolls no more: once the messages settle, the top is checked again.
  const settled = !loadingOlder && !refreshing && !olderFailed
  React.useEffect(() => {
    const pane = paneRef.current
    if (settled && hasOlder && seen.current && pane && pane.scrollTop < LOAD_OLDER_AT) loadOlder()
  }, [settled, hasOlder, oldest, loadOlder])

  return (
    <div
      ref={paneRef}
      onScroll={scrolled}
      // The pane scrolls by itself; keyboard users reach it to scroll with the arrow keys.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      aria-label="Message history"
      role="region"
      className="min-h-0 flex-1 overflow-y-auto px-3 pb-3 [overflow-anchor:none] focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
    >
      {/* A short conversation sits at the bottom, by the composer, as a long one does. */}
      <div className="flex min-h-full flex-col justify-end">
        {hasOlder && (
          <div className="flex justify-center pt-3">
            <Button variant="outline" size="sm" onClick={() => loadOlder()} disabled={loadingOlder}>
              {loadingOlder ? 'Loading...' : 'Show older messages'}
            </Button>
          </div>
        )}
        {messages.length === 0 ? (
          empty
        ) : (
          <ol aria-label="Messages" aria-live="polite" aria-relevant="additions" className="flex flex-col">
            {messages.map((message, index) => (
              <MessageItem
                key={message.id}
                message={message}
                memberId={memberId}
                showAuthor={startsRun(message, messages[index - 1])}
              />
            ))}
          </ol>
        )}
      </div>
    </div>
  )
}

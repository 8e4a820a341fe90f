import { eventsUrl } from '../api/events-url'
import { reconnectDelay } from './backoff'
import { LIVE_EVENT_TYPES, parseLiveEvent, type LiveEvent } from './live-event'

/** `EventSource.CLOSED`: the browser gave up on the stream and will not reconnect by itself. */
const CLOSED = 2

/** What the connection needs of an `EventSource` (a fake one in tests). */
export interface EventSourceLike {
  readonly readyState: number
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void
  close(): void
}

export interface LiveConnectionOptions {
  /** Opens a stream at `url` (`new EventSource(url)` in the browser). */
  open: (url: string) => EventSourceLike
  onEvent: (event: LiveEvent) => void
  /** For the back-off's jitter. */
  random?: () => number
}

export interface LiveConnection {
  start(): void
  /** Follow post `postId`'s counts too (the open thread), or no post. Calls in one task settle to the last. */
  follow(postId: number | null): void
  /** Closes the stream for good (logout, the session ended, the member screens went away). */
  close(): void
}

/**
 * The tab's one stream of GET /api/events. The browser reconnects by itself (sending
 * Last-Event-ID); when it gives up (readyState CLOSED) a new stream opens after a back-off. A
 * stream the app opens itself (after a back-off, or to follow another post) passes the last
 * event id it saw, so the server replays what the tab missed.
 */
export function createLiveConnection({ open, onEvent, random = Math.random }: LiveConnectionOptions): LiveConnection {
  let source: EventSourceLike | null = null
  let running = false
  let postId: number | null = null
  let wantedPostId: number | null = null
  let followPending = false
  let lastEventId: string | null = null
  let attempt = 0
  let retry: ReturnType<typeof setTimeout> | undefined

  function stop() {
    running = false
    clearTimeout(retry)
    source?.close()
    source = null
  }

  function connect() {
    clearTimeout(retry)
    source?.close()
    const stream = open(eventsUrl({ postId, lastEventId }))
    source = stream
    for (const type of LIVE_EVENT_TYPES) {
      stream.addEventListener(type, (message) => {
        if (source !== stream) return
        if (message.lastEventId) lastEventId = message.lastEventId
        const event = parseLiveEvent(type, message.data)
        if (!event) return
        // `hello` ends the opening burst: the stream works, so the next give-up starts the back-off over.
        if (event.type === 'hello') attempt = 0
        if (event.type === 'session-ended') stop()
        onEvent(event)
      })
    }
    stream.addEventListener('error', () => {
      // While CONNECTING the browser is reconnecting by itself.
      if (source !== stream || stream.readyState !== CLOSED) return
      stream.close()
      source = null
      retry = setTimeout(connect, reconnectDelay(attempt++, random))
    })
  }

  return {
    start() {
      if (running) return
      running = true
      connect()
    },
    follow(next) {
      wantedPostId = next
      if (!running) {
        // Before the start: the first stream follows it.
        postId = next
        return
      }
      if (followPending) return
      followPending = true
      // Leaving one thread for another (or React running an effect twice) asks for null, then
      // the next post, in one go: only the last wish opens a stream.
      queueMicrotask(() => {
        followPending = false
        if (!running || wantedPostId === postId) return
        postId = wantedPostId
        connect()
      })
    },
    close: stop,
  }
}

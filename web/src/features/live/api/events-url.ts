/** What a stream of GET /api/events follows beside the member's own events. */
export interface EventsQuery {
  /** The open thread's post: also stream its counts (`post-counts`). */
  postId?: number | null
  /** The last event id the tab saw, so a stream the app opens itself misses nothing. */
  lastEventId?: string | null
}

/** The address of the member's event stream (Server-Sent Events). */
export function eventsUrl({ postId, lastEventId }: EventsQuery = {}): string {
  const params = new URLSearchParams()
  if (postId != null) params.set('post', String(postId))
  if (lastEventId) params.set('lastEventId', lastEventId)
  const query = params.toString()
  return query ? `/api/events?${query}` : '/api/events'
}

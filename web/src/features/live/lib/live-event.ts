// The events of GET /api/events (docs: the live contract), parsed from their `event:` name and
// `data:` JSON into one union the app switches on.

export type LiveEvent =
  | { type: 'hello' }
  | { type: 'notification' }
  | { type: 'unread-count'; count: number }
  | { type: 'feed'; postIds: number[] }
  | { type: 'post-counts'; postId: number; likeCount: number; repostCount: number; replyCount: number }
  | { type: 'post-card'; postId: number }
  | { type: 'message'; conversationId: number }
  | { type: 'reset' }
  | { type: 'session-ended' }

export type LiveEventType = LiveEvent['type']

/** Every event name the app listens for on the stream. */
export const LIVE_EVENT_TYPES: readonly LiveEventType[] = [
  'hello',
  'notification',
  'unread-count',
  'feed',
  'post-counts',
  'post-card',
  'message',
  'reset',
  'session-ended',
]

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0
const isId = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0

function parseJson(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The event named `type` with `data`, or null when the name is unknown or the data is not what the contract says. */
export function parseLiveEvent(type: string, data: string): LiveEvent | null {
  const body = parseJson(data)
  if (!body) return null
  switch (type) {
    case 'hello':
    case 'notification':
    case 'reset':
    case 'session-ended':
      return { type }
    case 'unread-count':
      return isCount(body.count) ? { type, count: body.count } : null
    case 'feed': {
      const { postIds } = body
      return Array.isArray(postIds) && postIds.every(isId) ? { type, postIds } : null
    }
    case 'post-counts': {
      const { postId, likeCount, repostCount, replyCount } = body
      return isId(postId) && isCount(likeCount) && isCount(repostCount) && isCount(replyCount)
        ? { type, postId, likeCount, repostCount, replyCount }
        : null
    }
    case 'post-card':
      return isId(body.postId) ? { type, postId: body.postId } : null
    case 'message':
      return isId(body.conversationId) ? { type, conversationId: body.conversationId } : null
    default:
      return null
  }
}

// Shapes of the server's JSON (camelCase), shared by every feature.

export interface User {
  id: number
  username: string
  displayName: string
  bio: string
  website: string
  profileImageUrl: string | null
  headerImageUrl: string | null
  createdAt: string
  followerCount: number
  followingCount: number
  invitesAvailable: number
  email?: string
}

export interface PostAuthor {
  id: number
  username: string
  displayName: string
  profileImageUrl: string | null
}

export interface Post {
  id: number
  content: string
  author: PostAuthor
  createdAt: string
  imageUrls: string[]
  pollOptions: string[]
  pollVotes: Record<string, number[]>
  pollExpiresAt: string | null
  myVote?: string | null
  replyToId: number | null
  repostOfId: number | null
  repostOf?: Post | null
  replyCount: number
  repostCount: number
  likeCount: number
  isLiked: boolean
  isReposted: boolean
  /** A deleted post still stands in threads (its replies point at it), without content or actions. */
  isDeleted?: boolean
}

export interface Thread {
  post: Post
  replies: Post[]
  ancestors?: Post[]
}

export type NotificationType = 'follow' | 'like' | 'reply' | 'repost' | 'mention'

export interface Notification {
  id: number
  type: NotificationType
  isRead: boolean
  createdAt: string
  actor: PostAuthor
  post?: { id: number; content: string } | null
}

export interface Invite {
  id: number
  code: string
  isUsed: boolean
  usedAt: string | null
  expiresAt: string
  createdAt: string
}

export const PAGE_SIZE = 20
export const POST_MAX_LENGTH = 500
export const MAX_IMAGES = 4
export const MAX_POLL_OPTIONS = 4
export const POLL_OPTION_MAX_LENGTH = 80
/** The poll lengths the composer offers, in hours; the server takes 1 to 168 (default 24). */
export const POLL_DURATIONS = [
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '1 day' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
] as const
export const DISPLAY_NAME_MAX_LENGTH = 50
export const BIO_MAX_LENGTH = 160
export const WEBSITE_MAX_LENGTH = 200
/** Replies the thread call answers at most; more come from `/api/posts/{id}/replies`. */
export const THREAD_REPLIES = 200
export const MAX_UPLOAD_BYTES = 10485760

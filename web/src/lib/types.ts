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
export const MAX_UPLOAD_BYTES = 10485760

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
  /** Only on the member's own record (`/api/auth/me`). */
  role?: Role
  /** Only on the member's own record: false until they go through or skip the first-run step. */
  firstRunDone?: boolean
  /** Only on the member's own record: ISO time from which the username may change again; null: now. */
  usernameChangeableAt?: string | null
}

/** A member in the Followers and Following lists, with whether the viewer follows them. */
export interface ListedUser extends User {
  isFollowing: boolean
}

/** `GET /api/users/starter-pack`: the viewer's inviter and up to 20 people they follow. */
export interface StarterPack {
  /** null when the instance invited the viewer, or the inviter is hidden or gone. */
  inviter: User | null
  members: User[]
}

export type Role = 'member' | 'moderator' | 'admin'

/** A member's profile (`/api/users/{username}`): the member and where the viewer stands with them. */
export interface Profile extends User {
  /** The inviter's username; null when the instance's operator made the invite. */
  invitedBy: string | null
  isBlocking: boolean
  isBlockedBy: boolean
  isMuting: boolean
  mutedUntil: string | null
  /** Only moderators and admins see a suspended member's profile, with this. */
  suspendedUntil?: string | null
}

export interface PostAuthor {
  id: number
  username: string
  displayName: string
  profileImageUrl: string | null
}

/** A mention, hashtag or link in a post's text, found by the server when the post was written. */
export interface Entity {
  type: 'mention' | 'hashtag' | 'link'
  /** UTF-16 offsets into the post's `content` (JavaScript string indices), the `@` or `#` included. */
  start: number
  end: number
  /** mention: the member's username now (lower-case; it may differ from the text after a rename); hashtag: the tag as written, without `#`; link: the full URL. */
  value: string
  /** mention: the member's id. */
  userId?: number
}

/** An image of a post, as the card and the lightbox show it. */
export interface PostImage {
  /** `/objects/{id}` */
  url: string
  /** What the image shows, as its author described it; null when they did not. */
  alt: string | null
  /** In pixels, null if unknown. */
  width: number | null
  height: number | null
}

export interface Post {
  id: number
  content: string
  /** Sorted by `start`, never overlapping; a repost's own is empty (its `repostOf` carries them); missing means none. */
  entities?: Entity[]
  author: PostAuthor
  createdAt: string
  /** When its author last edited it (its earlier texts: `/api/posts/{id}/history`); null or missing when never. */
  editedAt?: string | null
  /** Until when its author may edit it (the server checks again); null on a post not shown. */
  editableUntil?: string | null
  imageUrls: string[]
  /** The same images with their descriptions and sizes; missing means none described (use `imageUrls`). */
  images?: PostImage[]
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
  /** The member bookmarked it (on a repost: its original); nobody else sees it. */
  isBookmarked?: boolean
  /** A deleted post still stands in threads (its replies point at it), without content or actions. */
  isDeleted?: boolean
  /** Its author is blocked (either way) or suspended: no author, no content. */
  isUnavailable?: boolean
  /** Removed by moderators; only its author gets it (everyone else gets it deleted). */
  isRemoved?: boolean
  /** The member's mute of the author, as set (`until` null: until unmuted; past: over); null or missing when none. */
  authorMute?: { until: string | null } | null
  /** On a Friends feed card standing for more than one entry of its page (a post and its reposts, shown once): how many. */
  feedEntries?: number
}

/** A tag's page header (`/api/tags/{name}`): counts for the last 7 days. */
export interface Tag {
  /** As first written on this instance (as asked for when nobody used it yet). */
  name: string
  postCount: number
  peopleCount: number
}

/** A trending tag (`/api/trending`): counts for the last 24 hours. */
export interface TrendingTag {
  name: string
  peopleCount: number
  postCount: number
}

/** An earlier text of an edited post (`/api/posts/{id}/history`). */
export interface PostVersion {
  content: string
  /** When this text was written: the post's creation or an earlier edit. */
  writtenAt: string
  /** When an edit replaced it. */
  replacedAt: string
}

export interface Thread {
  post: Post
  replies: Post[]
  ancestors?: Post[]
}

/** The spec's five, `removed` (moderators removed the post) and `export-ready` (the member's data archive; the actor is the member). */
export type NotificationType = 'follow' | 'like' | 'reply' | 'repost' | 'mention' | 'removed' | 'export-ready'

export interface Notification {
  id: number
  type: NotificationType
  isRead: boolean
  createdAt: string
  actor: PostAuthor
  post?: { id: number; content: string } | null
  /** Why moderators removed the post (`removed` only). */
  reason?: string | null
}

export interface Invite {
  id: number
  code: string
  isUsed: boolean
  usedAt: string | null
  expiresAt: string
  createdAt: string
}

export interface BlockedMember {
  user: User
  createdAt: string
}

export interface MutedMember {
  user: User
  createdAt: string
  /** null: until the member unmutes. */
  expiresAt: string | null
}

export type ReportReason = 'spam' | 'harassment' | 'impersonation' | 'other'

export interface Report {
  id: number
  reason: ReportReason
  comment: string | null
  createdAt: string
  /** The post's words when it was reported (its author may have edited or deleted it since): in the moderators' queue only. */
  postText: string | null
}

export type ModerationAction = 'dismiss' | 'remove_post' | 'suspend' | 'unsuspend' | 'take_invites' | 'give_invites'

/** A member as the moderation log names them. */
export interface LoggedMember {
  username: string
  displayName: string
}

/** One line of the public moderation log; reporters never appear in it. */
export interface LogEntry {
  id: number
  createdAt: string
  action: ModerationAction
  reason: string
  /** The role of who acted: what every member reads ("By a moderator"). */
  moderatorRole: 'moderator' | 'admin'
  /** Which moderator acted: only moderators and admins get it (null for everyone else, and once their account is gone). */
  moderator: LoggedMember | null
  member: LoggedMember | null
  postId: number | null
  /** When a suspension ends; null for one until lifted. */
  until: string | null
}

/** The open reports of one post or member, for moderators. */
export interface ReportGroup {
  /** The newest open report's id: dismissing it dismisses every open report of the target. */
  id: number
  target: 'post' | 'member'
  post: Post | null
  /** The reported post's id, to open it in its thread (`/post/{id}`); null for a member. */
  postId: number | null
  /** The member reported, or the post's author. */
  member: User & { suspendedUntil?: string | null }
  /** How many members reported it (never who). */
  reportCount: number
  reports: Report[]
  history: { earlierReports: number; actions: LogEntry[] }
}

export interface TreeMember {
  id: number
  username: string
  displayName: string
  status: 'active' | 'suspended'
  invitesTaken: boolean
  invitedCount: number
}

export interface InviteTree {
  member: TreeMember
  /** null: invited by the instance. */
  invitedBy: TreeMember | null
  invited: TreeMember[]
}

export const PAGE_SIZE = 20
export const POST_MAX_LENGTH = 500
export const MAX_IMAGES = 4
/** An image description's longest, in code points after trimming (src/posts/domain.rs). */
export const IMAGE_DESCRIPTION_MAX_LENGTH = 1500
export const MAX_POLL_OPTIONS = 4
export const POLL_OPTION_MAX_LENGTH = 80
/** The poll lengths the composer offers, in hours; the server takes 1 to 168 (default 24). */
export const POLL_DURATIONS = [
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '1 day' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
] as const
/** How long a mute lasts, in hours; none is until the member unmutes. */
export const MUTE_DURATIONS = [
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '1 day' },
  { hours: 168, label: '1 week' },
] as const
export const REPORT_REASONS: readonly { value: ReportReason; label: string }[] = [
  { value: 'spam', label: 'Spam' },
  { value: 'harassment', label: 'Harassment' },
  { value: 'impersonation', label: 'Impersonation' },
  { value: 'other', label: 'Other' },
]
/** A report's comment and a moderator's reason, in characters (code points). */
export const REPORT_COMMENT_MAX_LENGTH = 1000
export const MODERATION_REASON_MAX_LENGTH = 1000
/** The suspensions a moderator picks from, in days; none is until lifted. */
export const SUSPENSION_DAYS = [
  { days: 1, label: '1 day' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
] as const
export const DISPLAY_NAME_MAX_LENGTH = 50
export const BIO_MAX_LENGTH = 160
export const WEBSITE_MAX_LENGTH = 200
/** Replies the thread call answers at most; more come from `/api/posts/{id}/replies`. */
export const THREAD_REPLIES = 200
export const MAX_UPLOAD_BYTES = 10485760

// Shapes of the server's JSON (camelCase), shared by every feature: named from the OpenAPI
// document's schemas (`npm run api-types` makes api-schema.ts from web/openapi.json).
import type { components } from './api-schema'
import limits from './limits.json'

type Schemas = components['schemas']

export type User = Schemas['User']
/** A member in the Followers and Following lists, with whether the viewer follows them. */
export type ListedUser = Schemas['ListedUser']
/** `GET /api/users/starter-pack`: the viewer's inviter and up to 20 people they follow. */
export type StarterPack = Schemas['StarterPack']
/** The values the document's `User.role` string names. */
export type Role = 'member' | 'moderator' | 'admin'
/** A member's profile (`/api/users/{username}`): the member and where the viewer stands with them. */
export type Profile = Schemas['Profile']
export type PostAuthor = Schemas['Author']
/** A mention, hashtag or link in a post's text, found by the server when the post was written. */
export type Entity = Schemas['Entity']
/** An image of a post, as the card and the lightbox show it. */
export type PostImage = Schemas['PostImage']
export type Post = Schemas['Post']
/** A tag's page header (`/api/tags/{name}`): counts for the last 7 days. */
export type Tag = Schemas['Tag']
export type FollowedTag = Schemas['FollowedTag']
/** A trending tag (`/api/trending`): counts for the last 24 hours. */
export type TrendingTag = Schemas['TrendingTag']
/** An earlier text of an edited post (`/api/posts/{id}/history`). */
export type PostVersion = Schemas['PostVersion']
export type Thread = Schemas['Thread']
/** A notification's kind: the server's list of them (`NotificationKind` in the document). */
export type NotificationType = Schemas['NotificationKind']
export type Notification = Schemas['Notification']
export type Invite = Schemas['Invite']
/** One of the member's private lists of people they follow. */
export type MemberList = Schemas['List']
/** `GET /api/blocks` and `GET /api/mutes` answer the same shape; only a mute has `expiresAt`. */
export type BlockedMember = Schemas['ListedMember']
export type MutedMember = Schemas['ListedMember']
export type MutedWord = Schemas['MutedWordView']
export type ReportReason = Schemas['ReportReason']
export type Report = Schemas['Report']
/** A message as a report shows it to moderators: only those the reporter chose. */
export type ReportedMessage = Schemas['ReportedMessage']
export type ModerationAction = Schemas['Action']
/** A member as the moderation log names them. */
export type LoggedMember = Schemas['LogMember']
/** One line of the public moderation log; reporters never appear in it. */
export type LogEntry = Schemas['LogEntry']
/** The open reports of one post or member, for moderators. */
export type ReportGroup = Omit<Schemas['ReportGroup'], 'member'> & {
  // Not in the document: its ReportGroup.member is a plain User, which the server sends without a suspension.
  member: User & { suspendedUntil?: string | null }
}
/** A message; `removed` says why its words are gone (its author deleted it, or left Murmur). */
export type Message = Schemas['DirectMessage']
/** A conversation as the member sees it: its other members, where it shows, whether they may write. */
export type Conversation = Schemas['Conversation']
/** The member's setting "Allow new messages from" (on their own record). */
export type MessagesFrom = Schemas['MessagesFrom']
export type TreeMember = Schemas['TreeMember']
export type InviteTree = Schemas['InviteTree']

// The limits the server enforces, as it publishes them (crates/server/src/web/limits.rs; an API test keeps
// the file current).
export const PAGE_SIZE = limits.pageSize
export const POST_MAX_LENGTH = limits.postMaxLength
export const MAX_IMAGES = limits.maxImages
/** An image description's longest, in code points after trimming (crates/domain/src/posts/domain.rs). */
export const IMAGE_DESCRIPTION_MAX_LENGTH = limits.imageDescriptionMaxLength
/** A content warning's longest, in code points after trimming (crates/domain/src/posts/domain.rs). */
export const CONTENT_WARNING_MAX_LENGTH = limits.contentWarningMaxLength
/** A list's title's longest, in code points after trimming (crates/domain/src/lists). */
export const LIST_TITLE_MAX_LENGTH = limits.listTitleMaxLength
export const MAX_POLL_OPTIONS = limits.maxPollOptions
export const POLL_OPTION_MAX_LENGTH = limits.pollOptionMaxLength
/** The poll lengths the composer offers, in hours; the server takes 1 to 168 (default 24). */
/** The poll lengths the composer offers, in minutes (the server takes 5 minutes to 7 days). */
export const POLL_DURATIONS = [
  { minutes: 5, label: '5 minutes' },
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 360, label: '6 hours' },
  { minutes: 1440, label: '1 day' },
  { minutes: 4320, label: '3 days' },
  { minutes: 10080, label: '7 days' },
] as const
/** How long a mute lasts, in hours (the server's choices); none is until the member unmutes. */
export const MUTE_DURATIONS = limits.muteHours.map((hours) => ({
  hours,
  label: hours % 168 === 0 ? plural(hours / 168, 'week') : hours % 24 === 0 ? plural(hours / 24, 'day') : plural(hours, 'hour'),
}))
function plural(count: number, unit: string) {
  return `${count} ${unit}${count === 1 ? '' : 's'}`
}
export const REPORT_REASONS: readonly { value: ReportReason; label: string }[] = [
  { value: 'spam', label: 'Spam' },
  { value: 'harassment', label: 'Harassment' },
  { value: 'impersonation', label: 'Impersonation' },
  { value: 'other', label: 'Other' },
]
/** A report's comment and a moderator's reason, in characters (code points). */
export const REPORT_COMMENT_MAX_LENGTH = limits.reportCommentMaxLength
export const MODERATION_REASON_MAX_LENGTH = limits.moderationReasonMaxLength
/** The suspensions a moderator picks from, in days; none is until lifted. */
export const SUSPENSION_DAYS = [
  { days: 1, label: '1 day' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
] as const
export const DISPLAY_NAME_MAX_LENGTH = limits.displayNameMaxLength
export const BIO_MAX_LENGTH = limits.bioMaxLength
export const WEBSITE_MAX_LENGTH = limits.websiteMaxLength
/** Replies the thread call answers at most; more come from `/api/posts/{id}/replies`. */
export const THREAD_REPLIES = limits.threadReplies
export const MAX_UPLOAD_BYTES = limits.maxUploadBytes
export const SEARCH_PREFIX_MIN_LENGTH = limits.searchPrefixMinLength
/** A message's longest, in code points (crates/domain/src/messages). */
export const MESSAGE_MAX_LENGTH = limits.messageMaxLength
/** The most members a conversation holds, the member among them. */
export const MAX_CONVERSATION_MEMBERS = limits.maxConversationMembers
/** The most messages one report holds. */
export const MAX_REPORTED_MESSAGES = limits.maxReportedMessages
/** What an app asks of the member on the consent page (`GET /api/oauth/authorization`). */
export type AppRequest = Schemas['AppRequest']
/** Where the member's browser goes after their answer, or the code to copy. */
export type AuthorizationResult = Schemas['AuthorizationResult']
/** An app the member let in (`GET /api/apps`). */
export type ConnectedApp = Schemas['ConnectedApp']

/** The instance's Web Push public key (`GET /api/push/key`). */
export type PushKey = Schemas['PushKey']
/** This session's push subscription as the server keeps it: its endpoint and what it pushes. */
export type SavedPushSubscription = Schemas['PushSubscription']
/** What `POST /api/push/subscriptions` takes: the browser's subscription and what to push. */
export type NewPushSubscription = Schemas['NewPushSubscription']

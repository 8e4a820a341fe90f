// Every query key of the app, one definition per resource. They live below the features so a
// feature can keep another's cache fresh (a follow updates profiles and feeds) without importing it.

const AUTH_ROOT = 'auth'
export const authKeys = {
  all: [AUTH_ROOT] as const,
  /** Who is logged in (`/api/auth/me`), null for a visitor. */
  me: () => [AUTH_ROOT, 'me'] as const,
  /** The logout mutation: while it runs, the tab is leaving by its own path. */
  logout: () => [AUTH_ROOT, 'logout'] as const,
}

const ACCOUNT_ROOT = 'account'
export const accountKeys = {
  all: [ACCOUNT_ROOT] as const,
  /** The member's live sessions. */
  sessions: () => [ACCOUNT_ROOT, 'sessions'] as const,
  /** The member's passkeys. */
  passkeys: () => [ACCOUNT_ROOT, 'passkeys'] as const,
  /** Asking for the e-mail that confirms deleting the account. */
  requestDeletion: () => [ACCOUNT_ROOT, 'request-deletion'] as const,
  /** Deleting the account with the e-mailed link's token. */
  confirmDeletion: () => [ACCOUNT_ROOT, 'confirm-deletion'] as const,
}

const APPS_ROOT = 'apps'
export const appKeys = {
  all: [APPS_ROOT] as const,
  /** The apps holding access to the member's account. */
  connected: () => [APPS_ROOT, 'connected'] as const,
  /** An app's authorization request, as the consent page shows it. */
  request: (query: string) => [APPS_ROOT, 'request', query] as const,
}

const DATA_EXPORT_ROOT = 'data-export'
export const dataExportKeys = {
  all: [DATA_EXPORT_ROOT] as const,
  state: () => [DATA_EXPORT_ROOT, 'state'] as const,
}

/** The profile tabs that list the member's own posts. */
export type ProfilePostsTab = 'posts' | 'replies' | 'media'

// Every list or thread that holds posts lives under the "posts" root, so one update reaches them all.
const POSTS_ROOT = 'posts'
export const postKeys = {
  all: [POSTS_ROOT] as const,
  feed: () => [POSTS_ROOT, 'feed'] as const,
  forYou: () => [POSTS_ROOT, 'for-you'] as const,
  /** Every open thread. */
  threads: () => [POSTS_ROOT, 'thread'] as const,
  thread: (id: number) => [POSTS_ROOT, 'thread', id] as const,
  /** Every member's profile lists. */
  byAnyUser: () => [POSTS_ROOT, 'user'] as const,
  byUser: (username: string, tab: ProfilePostsTab = 'posts') => [POSTS_ROOT, 'user', username, tab] as const,
  /** A member's pinned posts (under `byAnyUser`, read again with their lists). */
  pinnedBy: (username: string) => [POSTS_ROOT, 'user', username, 'pinned'] as const,
  replies: (postId: number) => [POSTS_ROOT, 'replies', postId] as const,
  likedBy: (username: string) => [POSTS_ROOT, 'liked-by', username] as const,
  /** A tag's posts; tags are case-insensitive, so is the key. */
  byTag: (name: string) => [POSTS_ROOT, 'tag', name.toLowerCase()] as const,
  search: (query: string) => [POSTS_ROOT, 'search', query] as const,
  /** The member's bookmarks, newest bookmark first. */
  bookmarks: () => [POSTS_ROOT, 'bookmarks'] as const,
  /** A post's earlier texts. */
  history: (id: number) => [POSTS_ROOT, 'history', id] as const,
  /** One of the member's lists' feed. */
  list: (id: number) => [POSTS_ROOT, 'list', id] as const,
}

// The member's lists and who is in each; their feeds are post lists (postKeys.list).
const LISTS_ROOT = 'lists'
export const listKeys = {
  all: [LISTS_ROOT] as const,
  /** The member's lists. */
  mine: () => [LISTS_ROOT, 'mine'] as const,
  one: (id: number) => [LISTS_ROOT, 'one', id] as const,
  members: (id: number) => [LISTS_ROOT, 'members', id] as const,
}

// A tag's posts are post lists (postKeys.byTag), so likes and reposts reach them with every other list.
const TAGS_ROOT = 'tags'
export const tagKeys = {
  all: [TAGS_ROOT] as const,
  /** Tags are case-insensitive, so is the key. */
  tag: (name: string) => [TAGS_ROOT, 'tag', name.toLowerCase()] as const,
  trending: () => [TAGS_ROOT, 'trending'] as const,
  /** The tags the member follows (Settings). */
  followed: () => [TAGS_ROOT, 'followed'] as const,
}

/** The two lists of members a profile's counts open. */
export type FollowList = 'followers' | 'following'

const USERS_ROOT = 'users'
export const userKeys = {
  all: [USERS_ROOT] as const,
  profile: (username: string) => [USERS_ROOT, 'profile', username] as const,
  suggested: () => [USERS_ROOT, 'suggested'] as const,
  search: (term: string) => [USERS_ROOT, 'search', term] as const,
  starterPack: () => [USERS_ROOT, 'starter-pack'] as const,
  followList: (username: string, list: FollowList) => [USERS_ROOT, list, username] as const,
}

const FOLLOWS_ROOT = 'follows'
export const followKeys = {
  all: [FOLLOWS_ROOT] as const,
  status: (userId: number) => [FOLLOWS_ROOT, 'status', userId] as const,
}

const SAFETY_ROOT = 'safety'
export const safetyKeys = {
  all: [SAFETY_ROOT] as const,
  blocks: () => [SAFETY_ROOT, 'blocks'] as const,
  mutes: () => [SAFETY_ROOT, 'mutes'] as const,
  /** The member's muted words, phrases and hashtags. */
  mutedWords: () => [SAFETY_ROOT, 'muted-words'] as const,
}

export type NotificationTab = 'all' | 'mentions'

const NOTIFICATIONS_ROOT = 'notifications'
export const notificationKeys = {
  all: [NOTIFICATIONS_ROOT] as const,
  /** A tab of the grouped list: every kind, or mentions and replies only. */
  list: (tab: NotificationTab = 'all') => [NOTIFICATIONS_ROOT, 'list', tab] as const,
  unreadCount: () => [NOTIFICATIONS_ROOT, 'unread-count'] as const,
}

/** Where a conversation shows for the member: their inbox, or Requests until they accept it. */
export type ConversationBox = 'inbox' | 'requests'

// The member's conversations and their messages. No live events for them yet: the open
// conversation and the unread count are read again on focus and every little while.
const MESSAGES_ROOT = 'messages'
export const messageKeys = {
  all: [MESSAGES_ROOT] as const,
  /** Both boxes' lists of conversations. */
  lists: () => [MESSAGES_ROOT, 'list'] as const,
  list: (box: ConversationBox) => [MESSAGES_ROOT, 'list', box] as const,
  conversation: (id: number) => [MESSAGES_ROOT, 'conversation', id] as const,
  /** A conversation's messages, a page at a time from the newest. */
  messages: (conversationId: number) => [MESSAGES_ROOT, 'messages', conversationId] as const,
  /** Inbox conversations, not muted, holding a message the member has not read. */
  unreadCount: () => [MESSAGES_ROOT, 'unread-count'] as const,
  /** Sending in one conversation: one message after another, in the order written. */
  send: (conversationId: number) => [MESSAGES_ROOT, 'send', conversationId] as const,
}

const PUSH_ROOT = 'push'
export const pushKeys = {
  all: [PUSH_ROOT] as const,
  /** The instance's public key, which browsers subscribe with. */
  key: () => [PUSH_ROOT, 'key'] as const,
  /** This session's push subscription, null when it has none. */
  subscription: () => [PUSH_ROOT, 'subscription'] as const,
  /** Saving which notifications are pushed: one after another, so the last choice is the one kept. */
  saveChoices: () => [PUSH_ROOT, 'save-choices'] as const,
}

const INVITES_ROOT = 'invites'
export const inviteKeys = {
  all: [INVITES_ROOT] as const,
  list: () => [INVITES_ROOT, 'list'] as const,
}

const MODERATION_ROOT = 'moderation'
export const moderationKeys = {
  all: [MODERATION_ROOT] as const,
  reports: () => [MODERATION_ROOT, 'reports'] as const,
  log: () => [MODERATION_ROOT, 'log'] as const,
  inviteTree: (memberId: number) => [MODERATION_ROOT, 'invite-tree', memberId] as const,
}

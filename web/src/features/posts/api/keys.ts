/** The profile tabs that list the member's own posts. */
export type ProfilePostsTab = 'posts' | 'replies' | 'media'

// Every list or thread that holds posts lives under the "posts" root, so one update reaches them all.
export const POSTS_ROOT = 'posts'
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
  replies: (postId: number) => [POSTS_ROOT, 'replies', postId] as const,
  likedBy: (username: string) => [POSTS_ROOT, 'liked-by', username] as const,
  /** A tag's posts; tags are case-insensitive, so is the key. */
  byTag: (name: string) => [POSTS_ROOT, 'tag', name.toLowerCase()] as const,
  search: (query: string) => [POSTS_ROOT, 'search', query] as const,
  /** The member's bookmarks, newest bookmark first. */
  bookmarks: () => [POSTS_ROOT, 'bookmarks'] as const,
  /** A post's earlier texts. */
  history: (id: number) => [POSTS_ROOT, 'history', id] as const,
}

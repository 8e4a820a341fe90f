// What other features may use from posts; anything else here is internal.
export { refetchFeedFirstPage, useFeedPostIds } from './api/get-feed'
export { postKeys } from './api/keys'
export { postPagesOptions } from './api/list-query'
export { updatePostEverywhere } from './api/post-cache'
export { PostContent } from './components/post-content'
export { PostImages } from './components/post-images'
export { PostList } from './components/post-list'
export type { HighlightTerm } from './lib/highlight'

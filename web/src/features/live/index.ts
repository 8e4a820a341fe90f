// What the app may use from live; anything else here is internal.
export { LiveProvider, useLivePost } from './components/live-provider'
export { NewPostsButton } from './components/new-posts-button'

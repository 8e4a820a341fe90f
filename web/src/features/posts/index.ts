// What other features may use from posts; anything else here is internal.
export { postKeys } from './api/keys'
export { PostContent } from './components/post-content'
export { PostImages } from './components/post-images'

// What other features may use from follows; anything else here is internal.
export { followKeys } from './api/keys'
export { FollowButton } from './components/follow-button'

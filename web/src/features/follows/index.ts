// What other features may use from follows; anything else here is internal.
export { FollowButton } from './components/follow-button'

// What other features may use from users; anything else here is internal.
export { useFollowList } from './api/get-follow-list'
export { useProfile } from './api/get-profile'
export { SearchResults } from './components/search-results'
export { UserRow } from './components/user-row'
export { UsernameCard } from './components/username-card'
export { useSearchUsers } from './api/search-users'

// What other features may use from safety (blocks, mutes, reports); anything else here is internal.
export { safetyKeys } from './api/keys'
export { MemberMenu } from './components/member-menu'
export { BlockedByNotice, YouBlockedNotice } from './components/profile-notices'
export { BlockedMembers, MutedMembers } from './components/settings-lists'

// What other features may use from notifications; anything else here is internal.
export { notificationKeys } from './api/keys'
export { mergeLatestNotifications } from './api/merge-latest-notifications'

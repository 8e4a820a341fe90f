// What other features may use from notifications; anything else here is internal.
export { mergeLatestNotifications } from './api/merge-latest-notifications'

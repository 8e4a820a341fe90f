// What other features may use from moderation; anything else here is internal.
export { moderationKeys } from './api/keys'
export { InviteTreeView } from './components/invite-tree-view'
export { ModerationLog } from './components/moderation-log'
export { ReportQueue } from './components/report-queue'
export { SuspensionNotice } from './components/suspension-notice'

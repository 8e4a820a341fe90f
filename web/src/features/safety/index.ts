// What other features may use from safety (blocks, mutes, reports); anything else here is internal.
// Kept to the menu: it is on every post card, so what this imports is part of Home's first screen.
export { MemberMenu } from './components/member-menu'
// Reporting messages (from a conversation, which loads apart from Home).
export { ReportForm } from './components/report-form'

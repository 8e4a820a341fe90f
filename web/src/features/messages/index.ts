// What other features and app/ may use from messages; anything else here is internal.
// Its reads are never stale, as every read of the app: a new message, a deletion or a change
// made in another tab arrives as a live `message` event, which reads again what it changed, and
// a stream that had to reconnect reads them all again (features/live).
export { useUnreadConversations } from './api/get-unread-count'
export { MessageButton } from './components/message-button'
export { MessagesFromSetting } from './components/messages-from-setting'
export { MessagesScreen } from './components/messages-screen'

// What other features and app/ may use from messages; anything else here is internal.
export { useUnreadConversations } from './api/get-unread-count'
export { MessageButton } from './components/message-button'
export { MessagesFromSetting } from './components/messages-from-setting'
export { MessagesScreen } from './components/messages-screen'

export const NOTIFICATIONS_ROOT = 'notifications'
export const notificationKeys = {
  all: [NOTIFICATIONS_ROOT] as const,
  list: () => [NOTIFICATIONS_ROOT, 'list'] as const,
  unreadCount: () => [NOTIFICATIONS_ROOT, 'unread-count'] as const,
}

import * as React from 'react'
import type { Notification } from '@/lib/types'
import { usePrefersReducedMotion } from '@/lib/use-prefers-reduced-motion'
import { useScrollAnchor } from '@/lib/use-scroll-anchor'
import { NotificationItem } from './notification-item'

/**
 * The member's notifications. New ones arrive on top while the list is open (the live stream):
 * the reader's place is kept, and they slide in unless the member asked for less motion.
 */
export function NotificationList({ notifications }: { notifications: Notification[] }) {
  const listRef = React.useRef<HTMLUListElement>(null)
  const reducedMotion = usePrefersReducedMotion()
  const [firstShown] = React.useState(() => new Set(notifications.map((n) => n.id)))
  useScrollAnchor(listRef, notifications)
  return (
    <ul ref={listRef} aria-label="Notifications">
      {notifications.map((notification) => (
        <NotificationItem
          key={notification.id}
          notification={notification}
          arrived={!reducedMotion && !firstShown.has(notification.id)}
        />
      ))}
    </ul>
  )
}

import { Bell, Compass, Home, Ticket, User as UserIcon } from 'lucide-react'
import { cn } from '@/lib/utils'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useUnreadCount } from '@/features/notifications/api/get-unread-count'

export interface NavItem {
  href: string
  label: string
  icon: typeof Home
  badge?: number
}

export function useNavItems(): NavItem[] {
  const { data: user } = useCurrentUser()
  const unread = useUnreadCount(Boolean(user))
  return [
    { href: '/', label: 'Home', icon: Home },
    { href: '/discover', label: 'Discover', icon: Compass },
    { href: '/notifications', label: 'Notifications', icon: Bell, badge: unread.data?.count ?? 0 },
    { href: '/invites', label: 'Invites', icon: Ticket },
    // Before the member is known (the document's picture of the shell, prepaint.tsx) the link
    // names no profile, so it is not taken for Home's.
    { href: user ? `/profile/${user.username}` : '/profile', label: 'Profile', icon: UserIcon },
  ]
}

export function isActive(location: string, href: string) {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`)
}

export function Badge({ count, className }: { count: number; className?: string }) {
  if (count <= 0) return null
  return (
    <span
      className={cn(
        'inline-flex min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground',
        className,
      )}
    >
      {count > 99 ? '99+' : count}
      <span className="sr-only"> unread</span>
    </span>
  )
}

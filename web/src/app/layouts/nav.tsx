import { Link, useLocation } from 'wouter'
import { Bell, Bookmark, Compass, Home, List, Mail, ScrollText, Settings, Shield, Ticket, User as UserIcon } from 'lucide-react'
import { cn } from '@/lib/utils'
import { canModerate, useRole } from '@/features/auth/api/get-me'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useUnreadConversations } from '@/features/messages/api/get-unread-count'
import { useUnreadCount } from '@/features/notifications/api/get-unread-count'

export interface NavItem {
  href: string
  label: string
  icon: typeof Home
  badge?: number
  /** Left out of the small screens' bottom bar (it is in their menu sheet). */
  menuOnly?: boolean
}

export function useNavItems(): NavItem[] {
  const { data: user } = useCurrentUser()
  const unread = useUnreadCount(Boolean(user))
  const unreadConversations = useUnreadConversations(Boolean(user))
  const role = useRole()
  const items: NavItem[] = [
    { href: '/', label: 'Home', icon: Home },
    { href: '/discover', label: 'Discover', icon: Compass },
    { href: '/notifications', label: 'Notifications', icon: Bell, badge: unread.data?.count ?? 0 },
    { href: '/messages', label: 'Messages', icon: Mail, badge: unreadConversations.data?.count ?? 0 },
    { href: '/bookmarks', label: 'Bookmarks', icon: Bookmark, menuOnly: true },
    { href: '/lists', label: 'Lists', icon: List, menuOnly: true },
    { href: '/invites', label: 'Invites', icon: Ticket, menuOnly: true },
    // Before the member is known (the document's picture of the shell, prepaint.tsx) the link
    // names no profile, so it is not taken for Home's.
    { href: user ? `/profile/${user.username}` : '/profile', label: 'Profile', icon: UserIcon },
  ]
  if (canModerate(role)) items.push({ href: '/moderation', label: 'Moderation', icon: Shield, menuOnly: true })
  return items
}

/** The member's own pages beside the main ones: the user menu's and the small screens' sheet's. */
export const ACCOUNT_ITEMS: NavItem[] = [
  { href: '/settings', label: 'Settings', icon: Settings },
  // Every member may read what moderators did.
  { href: '/moderation/log', label: 'Moderation log', icon: ScrollText },
]

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

/** The pages as a vertical list of links: the sidebar's and the small screens' sheet's. */
export function NavList({
  items,
  label,
  linkClassName,
  activeClassName,
  iconClassName,
  onNavigate,
}: {
  items: NavItem[]
  /** The navigation landmark's name. */
  label: string
  linkClassName: string
  /** Added to the current page's link, which is also marked `aria-current="page"`. */
  activeClassName: string
  iconClassName: string
  onNavigate?: () => void
}) {
  const [location] = useLocation()
  return (
    <nav aria-label={label}>
      <ul className="flex flex-col gap-1">
        {items.map((item) => {
          const active = isActive(location, item.href)
          return (
            <li key={item.label}>
              <Link
                href={item.href}
                onClick={onNavigate}
                aria-current={active ? 'page' : undefined}
                className={cn(linkClassName, active && activeClassName)}
              >
                <item.icon className={iconClassName} aria-hidden="true" />
                {item.label}
                {item.badge !== undefined && <Badge count={item.badge} />}
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

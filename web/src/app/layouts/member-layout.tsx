import * as React from 'react'
import { Link, useLocation } from 'wouter'
import { Menu, MoreHorizontal, PenSquare } from 'lucide-react'
import { Avatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Deferred, DeferredMenu } from '@/components/ui/deferred'
import { Logo } from '@/components/logo'
import { ModeToggle } from '@/components/theme/mode-toggle'
import { cn } from '@/lib/utils'
import { useMe } from '@/features/auth/api/get-me'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useUnreadConversations } from '@/features/messages/api/get-unread-count'
import { useUnreadCount } from '@/features/notifications/api/get-unread-count'
import { useUnreadTitle } from '@/features/notifications/lib/unread-title'
import { useCompose } from '@/features/posts/components/compose-provider'
import { Badge, NavList, isActive, useNavItems } from './nav'

const UserMenuContent = React.lazy(() => import('./user-menu'))
const MobileMenuSheet = React.lazy(() => import('./mobile-menu'))

/** The member's menu at the bottom of the sidebar; its code loads after the first screen. */
function UserMenu() {
  const { data: user } = useCurrentUser()
  if (!user) return null
  return (
    <DeferredMenu
      menu={UserMenuContent}
      trigger={
        <button
          type="button"
          className="flex w-full items-center gap-3 rounded-full p-2 text-left hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <Avatar name={user.displayName} src={user.profileImageUrl} size={40} />
          <span className="min-w-0 flex-1">
            <span className="sr-only">User menu: </span>
            <span className="block truncate text-sm font-semibold">{user.displayName}</span>
            <span className="block truncate text-sm text-muted-foreground">@{user.username}</span>
          </span>
          <MoreHorizontal className="size-5" aria-hidden="true" />
        </button>
      }
    />
  )
}

function Sidebar() {
  const items = useNavItems()
  const { openCompose } = useCompose()
  return (
    <aside className="sticky top-0 hidden h-dvh w-64 shrink-0 flex-col justify-between px-3 py-4 lg:flex">
      <div className="flex flex-col gap-2">
        <Link href="/" className="mb-2 rounded-md px-3 py-2" aria-label="Murmur home">
          <Logo />
        </Link>
        <NavList
          items={items}
          label="Main"
          linkClassName="flex items-center gap-4 rounded-full px-4 py-3 text-lg transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          activeClassName="font-bold"
          iconClassName="size-6"
        />
        <Button size="lg" className="mt-2 rounded-full" onClick={() => openCompose()}>
          <PenSquare aria-hidden="true" /> New Post
        </Button>
      </div>
      <UserMenu />
    </aside>
  )
}

function MobileTopBar() {
  const [menuOpen, setMenuOpen] = React.useState(false)
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-border bg-background/95 px-2 backdrop-blur lg:hidden">
      <Button variant="ghost" size="icon" aria-label="Open menu" onClick={() => setMenuOpen(true)}>
        <Menu className="size-5" aria-hidden="true" />
      </Button>
      <Link href="/" aria-label="Murmur home" className="rounded-md">
        <Logo />
      </Link>
      <ModeToggle />
      <Deferred open={menuOpen}>
        <MobileMenuSheet open={menuOpen} onOpenChange={setMenuOpen} />
      </Deferred>
    </header>
  )
}

function MobileBottomBar() {
  const [location] = useLocation()
  const items = useNavItems().filter((item) => !item.menuOnly)
  return (
    <nav
      aria-label="Bottom"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-border bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur lg:hidden"
    >
      <ul className="flex h-14 items-stretch justify-around">
        {items.map((item) => (
          <li key={item.label} className="flex flex-1">
            <Link
              href={item.href}
              aria-current={isActive(location, item.href) ? 'page' : undefined}
              className={cn(
                'relative flex flex-1 items-center justify-center text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
                isActive(location, item.href) && 'text-foreground',
              )}
            >
              <item.icon className="size-6" aria-hidden="true" />
              <span className="sr-only">{item.label}</span>
              {item.badge !== undefined && item.badge > 0 && (
                <Badge count={item.badge} className="absolute left-1/2 top-2 ml-1" />
              )}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}

function FloatingCompose() {
  const { openCompose } = useCompose()
  return (
    <Button
      size="icon"
      aria-label="New Post"
      onClick={() => openCompose()}
      className="fixed bottom-20 right-4 z-30 size-14 rounded-full shadow-lg lg:hidden"
    >
      <PenSquare className="size-6" aria-hidden="true" />
    </Button>
  )
}

/**
 * Sidebar on large screens; top bar, floating compose and bottom bar on small ones; the unread
 * notifications and conversations, together, in the tab's title. A screen with a right column
 * (`aside`, even empty while it loads) has it on wide screens, beside the same main column, at
 * the same place as on every screen. A screen that `fill`s (Messages) takes the whole width
 * beside the sidebar and the height between the bars, with no floating button over its composer.
 */
export function MemberLayout({ children, aside, fill = false }: { children: React.ReactNode; aside?: React.ReactNode; fill?: boolean }) {
  const { data: user } = useCurrentUser()
  const { data: me } = useMe()
  const unread = useUnreadCount(Boolean(user))
  const unreadConversations = useUnreadConversations(Boolean(user))
  useUnreadTitle((unread.data?.count ?? 0) + (unreadConversations.data?.count ?? 0))
  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
      >
        Skip to content
      </a>
      <MobileTopBar />
      {/* One width on every screen, with a right column or not: the sidebar stays where it is. */}
      <div className="mx-auto flex max-w-6xl xl:max-w-7xl">
        <Sidebar />
        {/* Room below the last control for the floating New Post button and the bottom bar. */}
        <main
          id="main"
          className={cn(
            'min-w-0 flex-1 border-border lg:border-x lg:pb-0',
            fill ? 'pb-[calc(3.5rem_+_env(safe-area-inset-bottom))]' : 'pb-36 lg:max-w-2xl',
          )}
        >
          {children}
        </main>
        {aside !== undefined && (
          <aside
            aria-label="Who to follow and Trending"
            className="sticky top-0 hidden h-dvh w-80 shrink-0 flex-col gap-4 overflow-y-auto p-4 xl:flex"
          >
            {aside}
          </aside>
        )}
      </div>
      {/* The Welcome card is the new member's whole screen, its Continue where the button floats. */}
      {me?.firstRunDone !== false && !fill && <FloatingCompose />}
      <MobileBottomBar />
    </div>
  )
}

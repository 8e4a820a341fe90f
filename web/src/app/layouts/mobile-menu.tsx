import { LogOut } from 'lucide-react'
import { Avatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useLogout } from '@/features/auth/api/logout'
import { ACCOUNT_ITEMS, NavList, useNavItems } from './nav'

/** The small screens' menu, a sheet from the left (loaded apart: member-layout.tsx). */
export default function MobileMenu({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const items = useNavItems()
  const { data: user } = useCurrentUser()
  const logout = useLogout()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="left-0 top-0 h-dvh max-h-dvh w-72 max-w-[80vw] translate-x-0 translate-y-0 content-start rounded-none">
        <DialogTitle>Menu</DialogTitle>
        <DialogDescription className="sr-only">Go to another page or log out.</DialogDescription>
        {user && (
          <div className="flex items-center gap-3">
            <Avatar name={user.displayName} src={user.profileImageUrl} size={40} />
            <div className="min-w-0">
              <p className="truncate font-semibold">{user.displayName}</p>
              <p className="truncate text-sm text-muted-foreground">@{user.username}</p>
            </div>
          </div>
        )}
        <NavList
          items={items}
          label="Menu"
          linkClassName="flex items-center gap-3 rounded-md px-3 py-2.5 hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          activeClassName="font-semibold"
          iconClassName="size-5"
          onNavigate={() => onOpenChange(false)}
        />
        <NavList
          items={ACCOUNT_ITEMS}
          label="Account"
          linkClassName="flex items-center gap-3 rounded-md px-3 py-2.5 hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          activeClassName="font-semibold"
          iconClassName="size-5"
          onNavigate={() => onOpenChange(false)}
        />
        <Button variant="outline" onClick={() => logout.mutate()}>
          <LogOut aria-hidden="true" /> Log out
        </Button>
      </DialogContent>
    </Dialog>
  )
}

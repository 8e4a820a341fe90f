import * as React from 'react'
import { Link } from 'wouter'
import { Avatar } from '@/components/ui/avatar'
import type { User } from '@/lib/types'

/** A member in a list: avatar, name and @username linking to the profile, with an action on the right. */
export function UserRow({ user, action }: { user: User; action?: React.ReactNode }) {
  return (
    <li className="flex items-center gap-3 py-2">
      <Avatar name={user.displayName} src={user.profileImageUrl} size={40} />
      <Link href={`/profile/${user.username}`} className="min-w-0 flex-1 rounded-sm hover:underline">
        <span className="block truncate font-semibold">{user.displayName}</span>
        <span className="block truncate text-sm text-muted-foreground">@{user.username}</span>
      </Link>
      {action}
    </li>
  )
}

import * as React from 'react'
import { Link } from 'wouter'
import { Avatar } from '@/components/ui/avatar'
import type { User } from '@/lib/types'

/**
 * A member in a list: avatar, name and @username linking to the profile, with an action on the
 * right and, if given, a line about them under the name.
 */
export function UserRow({ user, action, detail }: { user: User; action?: React.ReactNode; detail?: React.ReactNode }) {
  return (
    <li className="flex items-center gap-3 py-2">
      <Avatar name={user.displayName} src={user.profileImageUrl} size={40} />
      <div className="min-w-0 flex-1">
        <Link href={`/profile/${user.username}`} className="block rounded-sm hover:underline">
          <span className="block truncate font-semibold">{user.displayName}</span>
          <span className="block truncate text-sm text-muted-foreground">@{user.username}</span>
        </Link>
        {detail && <p className="text-sm text-muted-foreground">{detail}</p>}
      </div>
      {action}
    </li>
  )
}

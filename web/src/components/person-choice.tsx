import { Avatar } from '@/components/ui/avatar'
import type { User } from '@/lib/types'

interface Props {
  user: Pick<User, 'displayName' | 'username' | 'profileImageUrl'>
  checked: boolean
  /** A choice that cannot be made now (a conversation already full) is shown dimmed. */
  disabled?: boolean
  onCheckedChange: (checked: boolean) => void
}

/** A person with a checkbox, as the lists to choose people from show them (a list's members, a new conversation's). */
export function PersonChoice({ user, checked, disabled = false, onCheckedChange }: Props) {
  return (
    <label className="flex cursor-pointer items-center gap-3 py-2 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60">
      <input
        type="checkbox"
        className="size-5 accent-primary"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onCheckedChange(event.target.checked)}
      />
      <Avatar name={user.displayName} src={user.profileImageUrl} size={36} />
      <span className="min-w-0 flex-1">
        <span className="block truncate font-semibold">{user.displayName}</span>
        <span className="block truncate text-sm text-muted-foreground">@{user.username}</span>
      </span>
    </label>
  )
}

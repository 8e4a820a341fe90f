import { Ban, EyeOff } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { useUnblockMember } from '../api/unblock-member'
import type { MemberRef } from '../api/member-changed'

/** In place of the profile's posts: the viewer blocked this member. */
export function YouBlockedNotice({ member }: { member: MemberRef }) {
  const unblock = useUnblockMember()
  return (
    <div role="status" className="grid justify-items-center gap-3 border-t border-border px-4 py-10 text-center">
      <Ban className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="text-lg font-semibold">You blocked @{member.username}</p>
      <p className="max-w-sm text-muted-foreground">You don&apos;t see their posts, and they can&apos;t interact with you.</p>
      <Button variant="outline" disabled={unblock.isPending} onClick={() => unblock.mutate(member)}>
        Unblock
      </Button>
    </div>
  )
}

/** In place of the profile's posts: this member blocked the viewer. */
export function BlockedByNotice() {
  return (
    <div role="status" className="grid justify-items-center gap-3 border-t border-border px-4 py-10 text-center">
      <EyeOff className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="text-lg font-semibold">You can&apos;t view this profile</p>
      <p className="max-w-sm text-muted-foreground">This member has blocked you.</p>
    </div>
  )
}

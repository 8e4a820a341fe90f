import * as React from 'react'
import { Ban, Flag, Volume2, VolumeX } from 'lucide-react'
import type { MenuProps } from '@/components/ui/deferred'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { MUTE_DURATIONS } from '@/lib/types'
import { useProfile } from '@/features/users'
import { useMuteMember } from '../api/mute-member'
import { useUnblockMember } from '../api/unblock-member'
import { useUnmuteMember } from '../api/unmute-member'
import type { MemberRef, MemberRelation } from '../api/member-changed'
import type { PostAction } from './member-menu'
import { BlockDialog } from './block-dialog'
import { ReportDialog } from './report-dialog'

type MenuDialog = 'block' | 'report'

/** The member menu itself (loaded apart: member-menu.tsx), and the dialogs its items open. */
export default function MemberMenuContent({
  trigger,
  defaultOpen,
  member,
  postId,
  relation: known,
  postActions = [],
}: MenuProps & { member: MemberRef; postId?: number; relation?: MemberRelation; postActions?: PostAction[] }) {
  const [dialog, setDialog] = React.useState<MenuDialog | null>(null)
  const triggerRef = React.useRef<HTMLButtonElement>(null)
  // Set as an item opens a dialog, before the menu closes: the menu then leaves focus to the
  // dialog, and the dialog gives it back to the trigger when it closes.
  const dialogOpening = React.useRef(false)
  // A post card knows where the viewer stands with its author; elsewhere the profile says.
  const profile = useProfile(member.username, known === undefined)
  const relation = known ?? profile.data

  function openDialog(which: MenuDialog) {
    dialogOpening.current = true
    setDialog(which)
  }
  function closeDialog(open: boolean) {
    if (!open) setDialog(null)
  }
  function focusTrigger(event: Event) {
    event.preventDefault()
    dialogOpening.current = false
    triggerRef.current?.focus()
  }

  return (
    <>
      {/* Not modal: the page is not hidden from screen readers behind a menu, and a dialog opened from it starts clean. */}
      <DropdownMenu defaultOpen={defaultOpen} modal={false}>
        <DropdownMenuTrigger asChild ref={triggerRef}>
          {trigger}
        </DropdownMenuTrigger>
        <DropdownMenuContent
          align="end"
          className="w-56"
          onCloseAutoFocus={(event) => {
            if (dialogOpening.current) event.preventDefault()
          }}
        >
          {postActions.map((action) => (
            <DropdownMenuItem key={action.label} onSelect={action.onSelect}>
              {action.label}
            </DropdownMenuItem>
          ))}
          {postActions.length > 0 && <DropdownMenuSeparator />}
          <MemberMenuItems
            member={member}
            postId={postId}
            relation={relation}
            loading={known === undefined && profile.isPending}
            onBlock={() => openDialog('block')}
            onReport={() => openDialog('report')}
          />
        </DropdownMenuContent>
      </DropdownMenu>
      <BlockDialog member={member} open={dialog === 'block'} onOpenChange={closeDialog} onCloseAutoFocus={focusTrigger} />
      <ReportDialog
        member={member}
        postId={postId}
        isBlocking={relation?.isBlocking}
        open={dialog === 'report'}
        onOpenChange={closeDialog}
        onCloseAutoFocus={focusTrigger}
      />
    </>
  )
}

function MemberMenuItems({
  member,
  postId,
  relation,
  loading,
  onBlock,
  onReport,
}: {
  member: MemberRef
  postId?: number
  /** Where the viewer stands with the member; unknown while the profile loads or if it failed. */
  relation?: { isMuting: boolean; isBlocking: boolean }
  loading: boolean
  onBlock: () => void
  onReport: () => void
}) {
  const mute = useMuteMember()
  const unmute = useUnmuteMember()
  const unblock = useUnblockMember()
  const handle = `@${member.username}`
  const muteLabelId = React.useId()
  return (
    <>
      {loading ? (
        <DropdownMenuItem disabled>Loading...</DropdownMenuItem>
      ) : (
        <>
          {relation?.isMuting ? (
            <DropdownMenuItem onSelect={() => unmute.mutate(member)}>
              <Volume2 className="size-4" aria-hidden="true" /> Unmute {handle}
            </DropdownMenuItem>
          ) : (
            // The lengths in the menu itself, under their heading: a menu beside a menu does not fit a phone.
            <DropdownMenuGroup aria-labelledby={muteLabelId}>
              <DropdownMenuLabel id={muteLabelId} className="flex items-center gap-2 font-normal text-muted-foreground">
                <VolumeX className="size-4" aria-hidden="true" /> Mute {handle}
              </DropdownMenuLabel>
              {MUTE_DURATIONS.map((duration) => (
                <DropdownMenuItem key={duration.hours} className="pl-8" onSelect={() => mute.mutate({ member, hours: duration.hours })}>
                  For {duration.label}
                </DropdownMenuItem>
              ))}
              <DropdownMenuItem className="pl-8" onSelect={() => mute.mutate({ member, hours: null })}>
                Until I unmute
              </DropdownMenuItem>
            </DropdownMenuGroup>
          )}
          <DropdownMenuSeparator />
          {relation?.isBlocking ? (
            <DropdownMenuItem onSelect={() => unblock.mutate(member)}>
              <Ban className="size-4" aria-hidden="true" /> Unblock {handle}
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem onSelect={onBlock}>
              <Ban className="size-4" aria-hidden="true" /> Block {handle}
            </DropdownMenuItem>
          )}
        </>
      )}
      <DropdownMenuItem onSelect={onReport}>
        <Flag className="size-4" aria-hidden="true" /> {postId === undefined ? `Report ${handle}` : 'Report post'}
      </DropdownMenuItem>
    </>
  )
}

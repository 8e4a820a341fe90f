import * as React from 'react'
import { useLocation } from 'wouter'
import { Bell, BellOff, Flag, LogOut, MoreHorizontal, X } from 'lucide-react'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { toast } from '@/components/ui/use-toast'
import type { Conversation } from '@/lib/types'
import { toastFailure } from '@/lib/toast-failure'
import { useMuteConversation } from '../api/mute-conversation'
import { useRemoveConversation } from '../api/remove-conversation'
import { putAwayLabel } from '../lib/names'
import { ReportMessagesDialog } from './report-messages-dialog'

/** What each way of putting a conversation away tells the member it did. */
const PUT_AWAY_DONE = {
  Decline: 'Request declined',
  Leave: 'You left the conversation',
  Hide: 'Conversation hidden until its next message',
} as const

/** Declines, leaves or hides a conversation, then goes back to the list it was in. */
export function usePutAway(conversation: Conversation) {
  const remove = useRemoveConversation()
  const [, navigate] = useLocation()
  const label = putAwayLabel(conversation)
  const putAway = () =>
    remove.mutate(conversation.id, {
      onSuccess: () => {
        toast({ title: PUT_AWAY_DONE[label] })
        navigate(conversation.box === 'requests' ? '/messages?box=requests' : '/messages', { replace: true })
      },
      onError: (error) => toastFailure(error, 'Could not do that. Please try again.'),
    })
  return { label, putAway, pending: remove.isPending }
}

/**
 * The conversation's "…" menu: Mute or Unmute, Report (some of its messages), and Decline,
 * Leave (asked first: it is for good) or Hide.
 */
export function ConversationMenu({ conversation, memberId }: { conversation: Conversation; memberId: number }) {
  const mute = useMuteConversation(conversation.id)
  const { label, putAway, pending } = usePutAway(conversation)
  const [leaving, setLeaving] = React.useState(false)
  const [reporting, setReporting] = React.useState(false)
  const triggerRef = React.useRef<HTMLButtonElement>(null)
  const backToTrigger = (event: Event) => {
    event.preventDefault()
    triggerRef.current?.focus()
  }
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button ref={triggerRef} variant="ghost" size="icon" aria-label="Conversation options">
            <MoreHorizontal aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem
            onSelect={() =>
              mute.mutate(!conversation.muted, {
                onSuccess: (after) => toast({ title: after.muted ? 'Conversation muted' : 'Conversation unmuted' }),
                onError: (error) => toastFailure(error, 'Could not change that. Please try again.'),
              })
            }
          >
            {conversation.muted ? <Bell aria-hidden="true" className="size-4" /> : <BellOff aria-hidden="true" className="size-4" />}
            {conversation.muted ? 'Unmute' : 'Mute'}
          </DropdownMenuItem>
          {conversation.members.length > 0 && (
            <DropdownMenuItem onSelect={() => setReporting(true)}>
              <Flag aria-hidden="true" className="size-4" />
              Report
            </DropdownMenuItem>
          )}
          <DropdownMenuItem onSelect={() => (label === 'Leave' ? setLeaving(true) : putAway())}>
            {label === 'Leave' ? <LogOut aria-hidden="true" className="size-4" /> : <X aria-hidden="true" className="size-4" />}
            {label}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ConfirmDialog
        open={leaving}
        onOpenChange={setLeaving}
        title="Leave this conversation?"
        description="You no longer get its messages, and you cannot come back to it."
        confirmLabel="Leave"
        pendingLabel="Leaving..."
        pending={pending}
        onConfirm={putAway}
        onCloseAutoFocus={backToTrigger}
      />
      <ReportMessagesDialog
        conversationId={conversation.id}
        memberId={memberId}
        open={reporting}
        onOpenChange={setReporting}
        onCloseAutoFocus={backToTrigger}
      />
    </>
  )
}

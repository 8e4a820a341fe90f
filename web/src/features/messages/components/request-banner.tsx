import { useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { toastFailure } from '@/lib/toast-failure'
import type { Conversation } from '@/lib/types'
import { useAcceptConversation } from '../api/accept-conversation'
import { usePutAway } from './conversation-menu'

/**
 * A request: someone the member does not follow wrote first. Accept moves it to the inbox
 * (so does answering); Decline puts it away without telling them.
 */
export function RequestBanner({ conversation }: { conversation: Conversation }) {
  const accept = useAcceptConversation()
  const [, navigate] = useLocation()
  const { putAway, pending } = usePutAway(conversation)
  return (
    <section
      aria-label="Message request"
      className="grid gap-2 border-b border-border bg-muted/50 px-4 py-3 text-sm"
    >
      <p>
        <span className="font-semibold">This is a message request.</span> You don't follow{' '}
        {conversation.members.length === 1 ? 'them' : 'everyone here'}. Accept to move it to your inbox; decline and
        they won't be told.
      </p>
      <div className="flex gap-2">
        <Button
          size="sm"
          disabled={accept.isPending}
          onClick={() =>
            accept.mutate(conversation.id, {
              // Out of Requests: the list beside it shows the inbox, where it now is.
              onSuccess: () => navigate(`/messages/${conversation.id}`, { replace: true }),
              onError: (error) => toastFailure(error, 'Could not accept the request. Please try again.'),
            })
          }
        >
          {accept.isPending ? 'Accepting...' : 'Accept'}
        </Button>
        <Button size="sm" variant="outline" disabled={pending} onClick={putAway}>
          Decline
        </Button>
      </div>
    </section>
  )
}

/** The starter of a request no one has accepted yet: they may send a few messages until then. */
export function SentAsRequest() {
  return (
    <p role="status" className="border-b border-border bg-muted/50 px-4 py-2 text-sm">
      <span className="font-semibold">Sent as a request.</span>{' '}
      <span className="text-muted-foreground">It waits under their Requests until they accept it or answer.</span>
    </p>
  )
}

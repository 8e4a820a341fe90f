import { useLocation } from 'wouter'
import { Mail } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { toastFailure } from '@/lib/toast-failure'
import { useOpenConversation } from '../api/open-conversation'

/**
 * "Message" on another member's profile: opens the conversation with them (the one there is, or
 * a new one). A refusal ("@bob takes new messages only from people they follow") is toasted.
 */
export function MessageButton({ userId, username }: { userId: number; username: string }) {
  const start = useOpenConversation()
  const [, navigate] = useLocation()
  return (
    <Button
      variant="outline"
      size="icon"
      className="rounded-full"
      aria-label="Message"
      title={`Message @${username}`}
      disabled={start.isPending}
      onClick={() =>
        start.mutate([userId], {
          onSuccess: (conversation) => navigate(`/messages/${conversation.id}`),
          onError: (error) => toastFailure(error, 'Could not open the conversation. Please try again.'),
        })
      }
    >
      <Mail aria-hidden="true" />
    </Button>
  )
}

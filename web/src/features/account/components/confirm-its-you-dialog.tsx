import * as React from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/use-toast'
import { messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { isPasskeyCancelled, passkeyFailure, useMe } from '@/features/auth'
import { useConfirmWithPasskey, useRequestConfirmationLink } from '../api/confirm-its-you'

/**
 * Asked before adding a passkey when the member signed in too long ago: a copied session alone
 * must not add one. One of their passkeys (when they have one here) or a link e-mailed to them
 * confirms this session; then they add the passkey.
 */
export function ConfirmItsYouDialog({
  open,
  onOpenChange,
  canUsePasskey,
  onConfirmed,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The member has a passkey, and this browser can use passkeys. */
  canUsePasskey: boolean
  onConfirmed: () => void
}) {
  const email = useMe().data?.email
  const withPasskey = useConfirmWithPasskey()
  const withLink = useRequestConfirmationLink()
  const [sent, setSent] = React.useState(false)
  const pending = withPasskey.isPending || withLink.isPending

  function changeOpen(next: boolean) {
    if (!next) setSent(false)
    onOpenChange(next)
  }

  function confirmByPasskey() {
    withPasskey.mutate(undefined, {
      onSuccess: () => {
        changeOpen(false)
        onConfirmed()
      },
      onError: (error) => {
        if (isPasskeyCancelled(error) || handleUnauthorized(error)) return
        toast({ title: "Couldn't confirm it's you", description: passkeyFailure(error, 'sign-in'), variant: 'destructive' })
      },
    })
  }

  function sendLink() {
    withLink.mutate(undefined, {
      onSuccess: () => setSent(true),
      onError: (error) => {
        if (handleUnauthorized(error)) return
        toast({
          title: 'Link not sent',
          description: messageOf(error, 'Sending the link failed. Please try again.'),
          variant: 'destructive',
        })
      },
    })
  }

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Confirm it&apos;s you</DialogTitle>
          <DialogDescription>
            {sent ? (
              <>
                We sent a link to {email ?? 'your e-mail address'}. Open it in this browser, then add your passkey. The
                link works once, for 15 minutes.
              </>
            ) : (
              <>
                You signed in a while ago. Before you add a passkey, confirm it&apos;s you
                {canUsePasskey ? ' with one of your passkeys, or' : ''} with a link we e-mail you.
              </>
            )}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          {sent ? (
            <Button onClick={() => changeOpen(false)}>Done</Button>
          ) : (
            <>
              <Button variant="outline" disabled={pending} onClick={sendLink}>
                {withLink.isPending ? 'Sending...' : 'E-mail me a link'}
              </Button>
              {canUsePasskey && (
                <Button disabled={pending} onClick={confirmByPasskey}>
                  {withPasskey.isPending ? 'Waiting for your passkey...' : 'Use a passkey'}
                </Button>
              )}
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

import * as React from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useRequestDeletion } from '../api/request-deletion'

/** Settings' "Delete account": asks first, then e-mails the link that confirms the deletion. */
export function DeleteAccountSection() {
  const [open, setOpen] = React.useState(false)
  const request = useRequestDeletion()
  return (
    <Card role="region" aria-labelledby="delete-account-title">
      <CardHeader>
        <CardTitle id="delete-account-title">Delete account</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="text-sm text-muted-foreground">
          Deleting your account removes your profile, posts, replies, reposts, likes, votes, follows and images.
          Replies others wrote to your posts stay, under &quot;This post was deleted&quot;. Your username stays unused
          for 30 days. This cannot be undone.
        </p>
        {request.isSuccess ? (
          <p role="status" className="text-sm font-medium">
            {request.data.message} The link works once, for 15 minutes.
          </p>
        ) : null}
        <div>
          <Button variant="destructive" onClick={() => setOpen(true)}>
            Delete account
          </Button>
        </div>
      </CardContent>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete your account?</DialogTitle>
            <DialogDescription>
              We&apos;ll e-mail you a link. Nothing is deleted until you open it and confirm on the page it opens.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              disabled={request.isPending}
              onClick={() => request.mutate(undefined, { onSuccess: () => setOpen(false) })}
            >
              {request.isPending ? 'Sending...' : 'Send confirmation e-mail'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  )
}

import * as React from 'react'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
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
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Delete your account?"
        description="We'll e-mail you a link. Nothing is deleted until you open it and confirm on the page it opens."
        confirmLabel="Send confirmation e-mail"
        pendingLabel="Sending..."
        pending={request.isPending}
        onConfirm={() => request.mutate(undefined, { onSuccess: () => setOpen(false) })}
      />
    </Card>
  )
}

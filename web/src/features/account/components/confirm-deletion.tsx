import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { messageOf } from '@/lib/api-client'
import { useConfirmDeletion } from '../api/confirm-deletion'

/**
 * The screen the e-mailed link opens. Opening it deletes nothing (a mail scanner following the
 * link is harmless): only the button does.
 */
export function ConfirmDeletion({ token }: { token: string | null }) {
  const confirm = useConfirmDeletion()
  if (!token) {
    return (
      <p role="alert" className="p-4 text-destructive">
        This link has no token. Ask for a new one in Settings.
      </p>
    )
  }
  return (
    <div className="p-4">
      <Card role="region" aria-labelledby="confirm-deletion-title">
        <CardHeader>
          <CardTitle id="confirm-deletion-title">Delete your account for good?</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <p className="text-sm text-muted-foreground">
            Your profile, posts, replies, reposts, likes, votes, follows, notifications and images will be removed, and
            you will be logged out. This cannot be undone.
          </p>
          {confirm.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {messageOf(confirm.error, 'Failed to delete your account. Please try again.')}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button variant="destructive" disabled={confirm.isPending} onClick={() => confirm.mutate(token)}>
              {confirm.isPending ? 'Deleting...' : 'Delete my account'}
            </Button>
            <Button variant="outline" asChild>
              <Link href="/settings">Keep my account</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  )
}

import { Link, useParams } from 'wouter'
import { ArrowLeft } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { InviteTreeView } from '@/features/moderation/components/invite-tree-view'
import { PageHeader } from './page-header'

export default function ModerationMemberRoute() {
  const params = useParams<{ id: string }>()
  const id = Number(params.id)
  return (
    <>
      <PageHeader
        title="Invite tree"
        before={
          <Button asChild variant="ghost" size="icon" aria-label="Back to the reports">
            <Link href="/moderation">
              <ArrowLeft className="size-5" aria-hidden="true" />
            </Link>
          </Button>
        }
      />
      {Number.isInteger(id) && id > 0 ? (
        <InviteTreeView key={id} memberId={id} />
      ) : (
        <p className="px-4 py-10 text-center text-muted-foreground">User not found.</p>
      )}
    </>
  )
}

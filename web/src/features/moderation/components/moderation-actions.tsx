import { Button } from '@/components/ui/button'
import { useDismissReports } from '../api/dismiss-reports'
import { useRemovePost } from '../api/remove-post'
import { useSetInvitesAllowed } from '../api/set-invites-allowed'
import { useSuspendMember } from '../api/suspend-member'
import { useUnsuspendMember } from '../api/unsuspend-member'
import { ActionDialog } from './action-dialog'

interface ModerationActionsProps {
  member: { id: number; username: string }
  /** The reported post: it can be removed. */
  postId?: number
  /** The newest open report of the target: its reports can be dismissed. */
  reportId?: number
  suspended: boolean
  /** Unknown (undefined) in the queue: taking them is offered; giving back is where it is known. */
  invitesTaken?: boolean
  /** Names the group of buttons for screen readers ("Actions on @x's post"). */
  label: string
}

/** The buttons a moderator acts with on a report, a post or a member; each asks for a reason. */
export function ModerationActions({ member, postId, reportId, suspended, invitesTaken, label }: ModerationActionsProps) {
  const dismiss = useDismissReports()
  const remove = useRemovePost()
  const suspend = useSuspendMember()
  const unsuspend = useUnsuspendMember()
  const invites = useSetInvitesAllowed()
  const handle = `@${member.username}`
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-2">
      {reportId !== undefined && (
        <ActionDialog
          trigger={
            <Button variant="outline" size="sm">
              Dismiss
            </Button>
          }
          title="Dismiss the reports"
          description="Every open report of this is closed, and nothing else changes."
          confirmLabel="Dismiss reports"
          pending={dismiss.isPending}
          onConfirm={({ reason }, close) => dismiss.mutate({ reportId, reason }, { onSuccess: close })}
        />
      )}
      {postId !== undefined && (
        <ActionDialog
          trigger={
            <Button variant="destructive" size="sm">
              Remove post
            </Button>
          }
          title="Remove the post"
          description={`The post is hidden from everyone. ${handle} sees it marked "Removed by moderators" and is told your reason.`}
          confirmLabel="Remove post"
          pending={remove.isPending}
          onConfirm={({ reason }, close) => remove.mutate({ postId, reason }, { onSuccess: close })}
        />
      )}
      {suspended ? (
        <ActionDialog
          trigger={
            <Button variant="outline" size="sm">
              Lift suspension
            </Button>
          }
          title={`Lift the suspension of ${handle}`}
          description="They can log in again, and their profile and posts are shown again."
          confirmLabel="Lift suspension"
          pending={unsuspend.isPending}
          onConfirm={({ reason }, close) => unsuspend.mutate({ member, reason }, { onSuccess: close })}
        />
      ) : (
        <ActionDialog
          trigger={
            <Button variant="destructive" size="sm">
              Suspend
            </Button>
          }
          title={`Suspend ${handle}`}
          description="They are logged out at once and can't log in; their profile and posts are hidden, and their unused invite codes stop working."
          confirmLabel={`Suspend ${handle}`}
          asksDays
          pending={suspend.isPending}
          onConfirm={({ reason, days }, close) => suspend.mutate({ member, reason, days }, { onSuccess: close })}
        />
      )}
      {invitesTaken ? (
        <ActionDialog
          trigger={
            <Button variant="outline" size="sm">
              Give invites back
            </Button>
          }
          title={`Give invites back to ${handle}`}
          description="They can make invite codes again."
          confirmLabel="Give invites back"
          pending={invites.isPending}
          onConfirm={({ reason }, close) => invites.mutate({ member, allowed: true, reason }, { onSuccess: close })}
        />
      ) : (
        <ActionDialog
          trigger={
            <Button variant="outline" size="sm">
              Take invites
            </Button>
          }
          title={`Take invites from ${handle}`}
          description="They can't make new invite codes, and the codes they have not given out stop working."
          confirmLabel="Take invites"
          pending={invites.isPending}
          onConfirm={({ reason }, close) => invites.mutate({ member, allowed: false, reason }, { onSuccess: close })}
        />
      )}
    </div>
  )
}

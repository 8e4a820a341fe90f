import * as React from 'react'
import { Link } from 'wouter'
import { ArrowLeft, Users } from 'lucide-react'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { ApiError } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useCurrentUser } from '@/features/auth'
import { PostList } from '@/features/posts'
import { useList, useListFeed } from '../api/lists'
import { EditMembersDialog } from './edit-members-dialog'
import { peopleCount } from './lists-screen'

/** The header's parts a list screen fills: its title and its actions. */
export interface ListScreenParts {
  title: React.ReactNode
  before: React.ReactNode
  actions?: React.ReactNode
  body: React.ReactNode
}

/** `/lists/{id}`: the list's feed, and "Edit members". Another member's list is "not found". */
export function useListScreen(id: number): ListScreenParts {
  const { data: me } = useCurrentUser()
  const list = useList(id)
  const feed = useListFeed(id)
  const [editing, setEditing] = React.useState(false)
  React.useEffect(() => {
    if (list.error) handleUnauthorized(list.error)
  }, [list.error])
  const before = (
    <Button asChild variant="ghost" size="icon" aria-label="Back to your lists">
      <Link href="/lists">
        <ArrowLeft className="size-5" aria-hidden="true" />
      </Link>
    </Button>
  )
  if (list.isPending) {
    return {
      title: 'List',
      before,
      body: (
        <p role="status" className="px-4 py-8 text-center text-muted-foreground">
          Loading...
        </p>
      ),
    }
  }
  if (list.error) {
    const missing = list.error instanceof ApiError && list.error.status === 404
    return {
      title: 'List',
      before,
      body: missing ? (
        <p className="px-4 py-10 text-center text-muted-foreground">This list does not exist, or it is not yours.</p>
      ) : (
        <LoadError what="This list" onRetry={() => void list.refetch()} retrying={list.isRefetching} />
      ),
    }
  }
  const current = list.data
  return {
    title: <span className="truncate">{current.title}</span>,
    before,
    actions: (
      <>
        <span className="hidden text-sm text-muted-foreground sm:inline">{peopleCount(current.memberCount)}</span>
        <Button variant="outline" size="sm" className="shrink-0" onClick={() => setEditing(true)} disabled={!me}>
          <Users aria-hidden="true" />
          {/* On a phone the icon alone, so a long title keeps its room; the name stays for screen readers. */}
          <span className="sr-only sm:not-sr-only">Edit members</span>
        </Button>
        {me && <EditMembersDialog list={current} username={me.username} open={editing} onOpenChange={setEditing} />}
      </>
    ),
    body: (
      <PostList
        query={feed}
        currentUserId={me?.id}
        empty={
          current.memberCount === 0 ? (
            <p>This list is empty. Use Edit members to add people you follow.</p>
          ) : (
            <p>No posts from the people in this list yet.</p>
          )
        }
      />
    ),
  }
}

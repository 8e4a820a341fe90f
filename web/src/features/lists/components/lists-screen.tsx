import * as React from 'react'
import { Link } from 'wouter'
import { Pencil, Trash2 } from 'lucide-react'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/use-toast'
import { toastFailure } from '@/lib/toast-failure'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { MemberList } from '@/lib/types'
import { useCreateList, useDeleteList, useLists, useRenameList } from '../api/lists'
import { ListTitleForm } from './list-title-form'

/** How many people a list holds, in words. */
export function peopleCount(count: number) {
  return count === 1 ? '1 person' : `${count} people`
}

/** The member's lists: make one, open, rename or delete each. */
export function ListsScreen() {
  const lists = useLists()
  const create = useCreateList()
  React.useEffect(() => {
    if (lists.error) handleUnauthorized(lists.error)
  }, [lists.error])
  return (
    <div className="grid gap-4 p-4">
      <p className="text-sm text-muted-foreground">
        Group people you follow into lists, each a feed of its own. Only you see your lists.
      </p>
      <ListTitleForm
        id="new-list-title"
        label="New list"
        submitLabel="Create list"
        pendingLabel="Creating..."
        onSubmit={async (title) => {
          const list = await create.mutateAsync(title)
          toast({ title: `Created “${list.title}”` })
        }}
      />
      {lists.isPending ? (
        <p role="status" className="py-6 text-center text-muted-foreground">
          Loading...
        </p>
      ) : lists.error ? (
        <LoadError what="Your lists" onRetry={() => void lists.refetch()} retrying={lists.isRefetching} />
      ) : lists.data.length === 0 ? (
        <p className="py-6 text-center text-muted-foreground">No lists yet. Name one above to begin.</p>
      ) : (
        <ul className="divide-y divide-border rounded-md border border-border" aria-label="Your lists">
          {lists.data.map((list) => (
            <ListRow key={list.id} list={list} />
          ))}
        </ul>
      )}
    </div>
  )
}

function ListRow({ list }: { list: MemberList }) {
  const [renaming, setRenaming] = React.useState(false)
  const [deleting, setDeleting] = React.useState(false)
  const rename = useRenameList()
  const remove = useDeleteList()
  return (
    <li className="flex items-center gap-2 px-3 py-2">
      <Link href={`/lists/${list.id}`} className="min-w-0 flex-1 rounded-sm py-1 hover:underline">
        <span className="block truncate font-semibold">{list.title}</span>
        <span className="block text-sm text-muted-foreground">{peopleCount(list.memberCount)}</span>
      </Link>
      <Button variant="ghost" size="icon" aria-label={`Rename ${list.title}`} onClick={() => setRenaming(true)}>
        <Pencil aria-hidden="true" />
      </Button>
      <Button variant="ghost" size="icon" aria-label={`Delete ${list.title}`} onClick={() => setDeleting(true)}>
        <Trash2 aria-hidden="true" />
      </Button>
      <Dialog open={renaming} onOpenChange={setRenaming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Rename list</DialogTitle>
            <DialogDescription>Only you see a list's title.</DialogDescription>
          </DialogHeader>
          <ListTitleForm
            id={`rename-list-${list.id}`}
            label="Title"
            initial={list.title}
            submitLabel="Save"
            pendingLabel="Saving..."
            onSubmit={async (title) => {
              await rename.mutateAsync({ id: list.id, title })
              setRenaming(false)
            }}
          />
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete “${list.title}”?`}
        description="The list goes; the people in it stay followed."
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(list.id, {
            onSuccess: () => {
              setDeleting(false)
              toast({ title: `Deleted “${list.title}”` })
            },
            onError: (error) => toastFailure(error, 'Could not delete the list. Please try again.'),
          })
        }
      />
    </li>
  )
}

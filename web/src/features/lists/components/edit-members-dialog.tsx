import * as React from 'react'
import { LoadError } from '@/components/load-error'
import { PersonChoice } from '@/components/person-choice'
import { ShowMore } from '@/components/show-more'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/use-toast'
import { toastFailure } from '@/lib/toast-failure'
import type { MemberList, User } from '@/lib/types'
import { useFollowList } from '@/features/users'
import { useListMembers, useSaveListMembers } from '../api/lists'

/**
 * "Edit members": the people the member follows, a page at a time, each with a checkbox; the
 * list's people come checked. Save sends what changed. Choices stay while the dialog is open,
 * whatever pages load.
 */
export function EditMembersDialog({
  list,
  username,
  open,
  onOpenChange,
}: {
  list: MemberList
  /** The member's own username: whose Following to pick from. */
  username: string
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const members = useListMembers(list.id, open)
  const following = useFollowList(username, 'following')
  const save = useSaveListMembers(list.id)
  // Only what the member changed: id → in the list or not.
  const [changes, setChanges] = React.useState<ReadonlyMap<number, boolean>>(new Map())
  const inList = React.useMemo(() => new Set(members.data?.map((m) => m.id)), [members.data])
  const isChecked = (id: number) => changes.get(id) ?? inList.has(id)
  const toggle = (id: number, checked: boolean) =>
    setChanges((before) => {
      const next = new Map(before)
      if (checked === inList.has(id)) next.delete(id)
      else next.set(id, checked)
      return next
    })
  // People in the list first (those not yet loaded from Following too), then the rest of Following.
  const people: User[] = React.useMemo(() => {
    const followed: User[] = following.data?.pages.flat() ?? []
    const listed = members.data ?? []
    const seen = new Set(listed.map((m) => m.id))
    return [...listed, ...followed.filter((user) => !seen.has(user.id))]
  }, [following.data, members.data])
  const add = [...changes].filter(([, checked]) => checked).map(([id]) => id)
  const remove = [...changes].filter(([, checked]) => !checked).map(([id]) => id)

  const close = (next: boolean) => {
    if (!next) setChanges(new Map())
    onOpenChange(next)
  }
  const submit = () =>
    save.mutate(
      { add, remove },
      {
        onSuccess: () => {
          toast({ title: `Saved “${list.title}”` })
          close(false)
        },
        onError: (error) => toastFailure(error, 'Could not save the list. Please try again.'),
      },
    )

  const error = members.error ?? following.error
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="flex max-h-[90dvh] flex-col">
        <DialogHeader>
          <DialogTitle>Edit members</DialogTitle>
          <DialogDescription>Pick who is in “{list.title}” from the people you follow.</DialogDescription>
        </DialogHeader>
        <div className="-mx-2 min-h-0 flex-1 overflow-y-auto px-2">
          {members.isPending || following.isPending ? (
            <p role="status" className="py-6 text-center text-muted-foreground">
              Loading...
            </p>
          ) : error ? (
            <LoadError
              what="The people you follow"
              onRetry={() => void Promise.all([members.refetch(), following.refetch()])}
              retrying={members.isRefetching || following.isRefetching}
            />
          ) : people.length === 0 ? (
            <p className="py-6 text-center text-muted-foreground">Follow people to add them to a list.</p>
          ) : (
            <ul className="divide-y divide-border" aria-label="People you follow">
              {people.map((user) => (
                <li key={user.id}>
                  <PersonChoice
                    user={user}
                    checked={isChecked(user.id)}
                    onCheckedChange={(on) => toggle(user.id, on)}
                  />
                </li>
              ))}
            </ul>
          )}
          <ShowMore
            hasNextPage={following.hasNextPage}
            isFetchingNextPage={following.isFetchingNextPage}
            fetchNextPage={following.fetchNextPage}
            label="Show more people"
          />
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={save.isPending || changes.size === 0}>
            {save.isPending ? 'Saving...' : 'Save'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

import * as React from 'react'
import { useLocation } from 'wouter'
import { Search, X } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { PersonChoice } from '@/components/person-choice'
import { messageOf } from '@/lib/api-client'
import { MAX_CONVERSATION_MEMBERS, type User } from '@/lib/types'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useDebounced } from '@/lib/use-debounced'
import { useSearchUsers } from '@/features/users'
import { useOpenConversation } from '../api/open-conversation'

/** The most people a member may choose: the conversation holds them and the member. */
const MAX_CHOSEN = MAX_CONVERSATION_MEMBERS - 1

/**
 * "New message": the member finds 1 to 7 people by name and opens the conversation with them
 * (the one they already have with the same people, or a new one). A refusal ("@bob takes new
 * messages only from people they follow") shows in the dialog, the choices kept.
 */
export function NewMessageDialog({ open, onOpenChange, memberId }: { open: boolean; onOpenChange: (open: boolean) => void; memberId: number }) {
  const id = React.useId()
  const [term, setTerm] = React.useState('')
  const [chosen, setChosen] = React.useState<User[]>([])
  const [error, setError] = React.useState<string | null>(null)
  const debounced = useDebounced(term.trim(), 300)
  const results = useSearchUsers(debounced)
  const start = useOpenConversation()
  const [, navigate] = useLocation()
  const full = chosen.length >= MAX_CHOSEN
  const people = (results.data ?? []).filter((user) => user.id !== memberId)
  // The people chosen stay listed (checked) whatever the search finds now.
  const listed = [...chosen, ...people.filter((user) => !chosen.some((c) => c.id === user.id))]

  const close = (next: boolean) => {
    if (!next) {
      setTerm('')
      setChosen([])
      setError(null)
    }
    onOpenChange(next)
  }
  const toggle = (user: User, on: boolean) => {
    setError(null)
    setChosen((before) => (on ? (before.some((c) => c.id === user.id) ? before : [...before, user]) : before.filter((c) => c.id !== user.id)))
  }
  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    if (chosen.length === 0) return
    start.mutate(
      chosen.map((user) => user.id),
      {
        onSuccess: (conversation) => {
          close(false)
          navigate(`/messages/${conversation.id}`)
        },
        onError: (failure) => {
          if (!handleUnauthorized(failure)) setError(messageOf(failure, 'Could not open the conversation. Please try again.'))
        },
      },
    )
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="flex max-h-[90dvh] flex-col">
        <DialogHeader>
          <DialogTitle>New message</DialogTitle>
          <DialogDescription>
            Choose 1 to {MAX_CHOSEN} people. Messages are private but not end-to-end encrypted.
          </DialogDescription>
        </DialogHeader>
        <form id={`${id}-form`} onSubmit={submit} className="grid min-h-0 flex-1 grid-rows-[auto_auto_1fr] gap-3">
          <div className="relative">
            <label htmlFor={`${id}-search`} className="sr-only">
              Search people
            </label>
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <Input
              id={`${id}-search`}
              type="search"
              value={term}
              onChange={(event) => setTerm(event.target.value)}
              placeholder="Search people"
              className="pl-9"
              autoComplete="off"
            />
          </div>
          {chosen.length > 0 ? (
            <ul aria-label="Chosen" className="flex flex-wrap gap-2">
              {chosen.map((user) => (
                <li key={user.id}>
                  <span className="inline-flex items-center gap-1 rounded-full bg-secondary py-0.5 pl-3 pr-1 text-sm text-secondary-foreground">
                    {user.displayName}
                    <button
                      type="button"
                      aria-label={`Remove ${user.displayName}`}
                      onClick={() => toggle(user, false)}
                      className="rounded-full p-1 hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      <X className="size-3.5" aria-hidden="true" />
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">Nobody chosen yet.</p>
          )}
          <div className="-mx-2 min-h-0 overflow-y-auto px-2">
            {results.isFetching && listed.length === 0 ? (
              <p role="status" className="py-4 text-center text-muted-foreground">
                Searching...
              </p>
            ) : debounced && listed.length === 0 && !results.isFetching ? (
              <p className="py-4 text-center text-muted-foreground">Nobody found for “{debounced}”.</p>
            ) : (
              listed.length > 0 && (
                <ul aria-label="People" className="divide-y divide-border">
                  {listed.map((user) => {
                    const checked = chosen.some((c) => c.id === user.id)
                    return (
                      <li key={user.id}>
                        <PersonChoice
                          user={user}
                          checked={checked}
                          disabled={!checked && full}
                          onCheckedChange={(on) => toggle(user, on)}
                        />
                      </li>
                    )
                  })}
                </ul>
              )
            )}
          </div>
        </form>
        {full && <p className="text-sm text-muted-foreground">A conversation holds at most {MAX_CONVERSATION_MEMBERS} people, you among them.</p>}
        <p role="alert" className="text-sm text-destructive empty:hidden">
          {error}
        </p>
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" form={`${id}-form`} disabled={chosen.length === 0 || start.isPending}>
            {start.isPending ? 'Opening...' : 'Open conversation'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

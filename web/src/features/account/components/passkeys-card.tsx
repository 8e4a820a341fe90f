import * as React from 'react'
import { KeyRound } from 'lucide-react'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { toast } from '@/components/ui/use-toast'
import { handleUnauthorized } from '@/lib/unauthorized'
import { dateTime, relativeTime } from '@/lib/utils'
import { whyNoPasskeys } from '@/features/auth'
import { needsRecentSignIn } from '../api/confirm-its-you'
import { type MemberPasskey, useAddPasskey, usePasskeys, useRemovePasskey } from '../api/passkeys'
import { ConfirmItsYouDialog } from './confirm-its-you-dialog'

/** The longest name a passkey can have (the server's limit). */
const MAX_NAME = 64

/**
 * The member's passkeys: add one with a name (the browser makes it), see when each was added
 * and last used, remove one after a confirm. Magic links keep working beside them: a new
 * device, or a lost one, signs in with an e-mailed link.
 */
export function PasskeysCard() {
  const passkeys = usePasskeys()
  const [removing, setRemoving] = React.useState<MemberPasskey | null>(null)
  React.useEffect(() => {
    if (passkeys.error) handleUnauthorized(passkeys.error)
  }, [passkeys.error])
  const list = passkeys.data ?? []
  return (
    <Card role="region" aria-labelledby="passkeys-title">
      <CardHeader>
        <CardTitle id="passkeys-title">Passkeys</CardTitle>
        <p className="text-sm text-muted-foreground">
          Sign in with your fingerprint, face or device PIN instead of an e-mailed link. A new device can always sign in
          with a link.
        </p>
      </CardHeader>
      <CardContent className="grid gap-4">
        {passkeys.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading...
          </p>
        ) : passkeys.error ? (
          <LoadError what="Passkeys" onRetry={() => void passkeys.refetch()} retrying={passkeys.isRefetching} />
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">You have no passkeys yet.</p>
        ) : (
          <ul className="divide-y divide-border" aria-label="Your passkeys">
            {list.map((passkey) => (
              <PasskeyRow key={passkey.id} passkey={passkey} onRemove={() => setRemoving(passkey)} />
            ))}
          </ul>
        )}
        <AddPasskeyForm hasPasskeys={list.length > 0} />
      </CardContent>
      <RemovePasskeyDialog passkey={removing} onDone={() => setRemoving(null)} />
    </Card>
  )
}

function PasskeyRow({ passkey, onRemove }: { passkey: MemberPasskey; onRemove: () => void }) {
  const added = dateTime(passkey.createdAt)
  return (
    <li className="flex items-center gap-3 py-3">
      <KeyRound className="size-6 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="break-words font-semibold">{passkey.name}</p>
        <p className="text-sm text-muted-foreground">
          Added {added} · {passkey.lastUsedAt ? `Last used ${relativeTime(passkey.lastUsedAt)}` : 'Never used'}
        </p>
      </div>
      <Button variant="outline" size="sm" aria-label={`Remove ${passkey.name}, added ${added}`} onClick={onRemove}>
        Remove
      </Button>
    </li>
  )
}

function AddPasskeyForm({ hasPasskeys }: { hasPasskeys: boolean }) {
  const add = useAddPasskey()
  const [name, setName] = React.useState('')
  const [error, setError] = React.useState<string | null>(null)
  const [confirming, setConfirming] = React.useState(false)
  const addButton = React.useRef<HTMLButtonElement>(null)
  const unavailable = React.useMemo(() => whyNoPasskeys(), [])
  if (unavailable) return <p className="text-sm text-muted-foreground">{unavailable}</p>

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    const trimmed = name.trim()
    if (!trimmed) {
      setError('Please give the passkey a name, such as the device it is on.')
      return
    }
    setError(null)
    add.mutate(trimmed, {
      onSuccess: () => setName(''),
      onError: (failure) => needsRecentSignIn(failure) && setConfirming(true),
    })
  }

  return (
    <>
      <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={handleSubmit} noValidate>
        <Field id="passkey-name" label="Passkey name" error={error} className="flex-1">
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="My phone"
            maxLength={MAX_NAME}
            autoComplete="off"
          />
        </Field>
        <Button ref={addButton} type="submit" disabled={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add a passkey'}
        </Button>
      </form>
      <ConfirmItsYouDialog
        open={confirming}
        onOpenChange={setConfirming}
        canUsePasskey={hasPasskeys}
        onConfirmed={() => {
          toast({ title: "It's you", description: 'Add your passkey now: press “Add a passkey” again.' })
          addButton.current?.focus()
        }}
      />
    </>
  )
}

function RemovePasskeyDialog({ passkey, onDone }: { passkey: MemberPasskey | null; onDone: () => void }) {
  const remove = useRemovePasskey()
  return (
    <ConfirmDialog
      open={passkey !== null}
      onOpenChange={(open) => !open && onDone()}
      title="Remove this passkey?"
      description={
        <>
          &ldquo;{passkey?.name}&rdquo; will no longer sign in to your account. Sessions it already started stay; you
          can end them under Sessions.
        </>
      }
      confirmLabel="Remove passkey"
      pendingLabel="Removing..."
      pending={remove.isPending}
      onConfirm={() => passkey && remove.mutate(passkey, { onSuccess: onDone })}
    />
  )
}

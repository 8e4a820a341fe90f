import * as React from 'react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { toast } from '@/components/ui/use-toast'
import { messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { dateTime } from '@/lib/utils'
import type { User } from '@/lib/types'
import { useMe } from '@/features/auth'
import { useUpdateProfile } from '../api/update-profile'
import { usernameProblem } from '../lib/profile-rules'

/** The member's username in Settings: changed at most once in 30 days, the old one held for them. */
export function UsernameCard() {
  const me = useMe()
  return (
    <Card role="region" aria-labelledby="username-title">
      <CardHeader>
        <CardTitle id="username-title">Username</CardTitle>
        <p className="text-sm text-muted-foreground">
          Your old username keeps leading to your profile for 30 days after a change, and no one else can take it
          meanwhile.
        </p>
      </CardHeader>
      <CardContent>{me.data ? <UsernameForm me={me.data} /> : null}</CardContent>
    </Card>
  )
}

function UsernameForm({ me }: { me: User }) {
  const [username, setUsername] = React.useState(me.username)
  const [refusal, setRefusal] = React.useState<string | null>(null)
  const update = useUpdateProfile()
  // The server sends null once a change is allowed.
  const changeableAt = me.usernameChangeableAt ?? null
  const waiting = changeableAt !== null
  const unchanged = username.trim() === me.username
  const problem = unchanged ? undefined : usernameProblem(username)

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    if (problem || unchanged) return
    setRefusal(null)
    update.mutate(
      { username: username.trim(), displayName: me.displayName, bio: me.bio ?? '', website: me.website ?? '' },
      {
        onSuccess: (user) => toast({ title: 'Username changed', description: `You are now @${user.username}.` }),
        onError: (error) => {
          if (!handleUnauthorized(error)) setRefusal(messageOf(error, 'Failed to change your username. Please try again.'))
        },
      },
    )
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-3">
      <Field
        id="settings-username"
        label="Username"
        hint={
          changeableAt
            ? `You can change it again on ${dateTime(changeableAt)}.`
            : 'You can change it now; after that, not again for 30 days.'
        }
        error={problem ?? refusal}
      >
        <Input
          value={username}
          onChange={(e) => {
            setUsername(e.target.value)
            setRefusal(null)
          }}
          disabled={waiting}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
        />
      </Field>
      <div className="flex justify-end">
        <Button type="submit" disabled={waiting || unchanged || Boolean(problem) || update.isPending}>
          {update.isPending ? 'Saving...' : 'Change username'}
        </Button>
      </div>
    </form>
  )
}

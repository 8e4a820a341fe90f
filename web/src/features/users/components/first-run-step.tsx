import * as React from 'react'
import { Camera } from 'lucide-react'
import { Avatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { ApiError, messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { cn, codePointLength } from '@/lib/utils'
import { BIO_MAX_LENGTH, type User } from '@/lib/types'
import { useFinishFirstRun } from '../api/finish-first-run'
import { useUpdateProfile } from '../api/update-profile'
import { isUsernameRefusal, profileProblems, usernameProblem } from '../lib/profile-rules'
import { ImageChangeButton } from './image-change-button'

/**
 * A new member's first Home: pick a username, name, picture and bio, or skip. Either way the step
 * is marked done and does not come back.
 */
export function FirstRunStep({ me }: { me: User }) {
  const [username, setUsername] = React.useState(me.username)
  const [displayName, setDisplayName] = React.useState(me.displayName)
  const [bio, setBio] = React.useState(me.bio ?? '')
  const [refusal, setRefusal] = React.useState<{ username?: string; form?: string }>({})
  const update = useUpdateProfile()
  const finish = useFinishFirstRun()
  const problems = profileProblems({ displayName, bio, website: me.website ?? '' })
  const usernameError = usernameProblem(username) ?? refusal.username
  const invalid = Boolean(usernameProblem(username) || problems.displayName || problems.bio)
  const busy = update.isPending || finish.isPending

  function markDone() {
    finish.mutate(undefined, {
      onError: (error) => {
        if (!handleUnauthorized(error)) setRefusal({ form: messageOf(error, 'Could not save. Please try again.') })
      },
    })
  }

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    if (invalid) return
    setRefusal({})
    update.mutate(
      { username: username.trim(), displayName: displayName.trim(), bio, website: me.website ?? '' },
      {
        onSuccess: markDone,
        onError: (error) => {
          if (handleUnauthorized(error)) return
          const message = messageOf(error, 'Could not save your profile. Please try again.')
          // What was typed stays in the fields; the message goes beside the one it is about.
          const aboutUsername = error instanceof ApiError && (error.status === 409 || isUsernameRefusal(message))
          setRefusal(aboutUsername ? { username: message } : { form: message })
        },
      },
    )
  }

  return (
    <Card role="region" aria-labelledby="first-run-title" className="m-4">
      <CardHeader>
        <CardTitle id="first-run-title">Welcome to Murmur</CardTitle>
        <p className="text-sm text-muted-foreground">Choose how others see you. You can change all of this later.</p>
      </CardHeader>
      <CardContent>
        <form onSubmit={handleSubmit} className="grid gap-4">
          <div className="flex items-center gap-3">
            <Avatar name={displayName || me.displayName} src={me.profileImageUrl} size={64} />
            <ImageChangeButton kind="profile">
              {(open) => (
                <Button type="button" variant="outline" onClick={open}>
                  <Camera aria-hidden="true" /> {me.profileImageUrl ? 'Change picture' : 'Add a picture'}
                </Button>
              )}
            </ImageChangeButton>
          </div>
          <Field
            id="first-run-username"
            label="Username"
            hint="Letters, digits and underscores; others mention you with it."
            error={usernameError}
          >
            <Input
              value={username}
              onChange={(e) => {
                setUsername(e.target.value)
                setRefusal((r) => ({ ...r, username: undefined }))
              }}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
            />
          </Field>
          <Field id="first-run-display-name" label="Display Name" error={problems.displayName}>
            <Input value={displayName} onChange={(e) => setDisplayName(e.target.value)} autoComplete="name" required />
          </Field>
          <Field
            id="first-run-bio"
            label="Bio"
            hint={`${codePointLength(bio.trim())}/${BIO_MAX_LENGTH}`}
            hintClassName={cn('text-right', problems.bio && 'font-semibold text-destructive')}
            error={problems.bio}
          >
            <Textarea rows={3} value={bio} onChange={(e) => setBio(e.target.value)} />
          </Field>
          {refusal.form && (
            <p role="alert" className="text-sm text-destructive">
              {refusal.form}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={markDone} disabled={busy}>
              Skip
            </Button>
            <Button type="submit" disabled={invalid || busy}>
              {busy ? 'Saving...' : 'Continue'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}

import * as React from 'react'
import { MailCheck } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useCurrentUser } from '@/features/auth'
import { useRequestEmailChange } from '../api/request-email-change'

/** The member's address, and a form that e-mails a confirmation link to a new one. */
export function EmailCard() {
  const me = useCurrentUser()
  const request = useRequestEmailChange()
  const [email, setEmail] = React.useState('')
  const [error, setError] = React.useState<string | null>(null)
  const [sent, setSent] = React.useState<{ to: string; message: string } | null>(null)

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    const address = email.trim()
    if (!address) {
      setError('Please enter your new email address.')
      return
    }
    setError(null)
    request.mutate(
      { email: address },
      {
        onSuccess: ({ message }) => {
          setSent({ to: address, message })
          setEmail('')
        },
        onError: (failure) => {
          if (!handleUnauthorized(failure)) setError(messageOf(failure, 'Failed to send the link. Please try again.'))
        },
      },
    )
  }

  return (
    <Card role="region" aria-labelledby="email-title">
      <CardHeader>
        <CardTitle id="email-title">E-mail address</CardTitle>
        <p className="text-sm text-muted-foreground">
          Your login links go to{' '}
          <strong className="break-all font-medium text-foreground">{me.data?.email ?? '...'}</strong>.
        </p>
      </CardHeader>
      <CardContent className="grid gap-3">
        <form onSubmit={handleSubmit} noValidate className="grid gap-3">
          <Field
            id="new-email"
            label="New e-mail address"
            hint="We send a link to the new address; your address changes when you follow it, and the current one is told."
            error={error}
          >
            <Input
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoComplete="email"
              maxLength={254}
            />
          </Field>
          <div className="flex justify-end">
            <Button type="submit" disabled={request.isPending}>
              {request.isPending ? 'Sending...' : 'Send confirmation link'}
            </Button>
          </div>
        </form>
        {sent && (
          <div role="status" className="flex items-start gap-2 rounded-lg bg-muted px-3 py-2 text-sm">
            <MailCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <p>
              <span className="break-all font-medium">{sent.to}</span>: {sent.message}
            </p>
          </div>
        )}
      </CardContent>
    </Card>
  )
}

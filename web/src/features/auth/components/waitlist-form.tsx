import * as React from 'react'
import { CheckCircle2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { toast } from '@/components/ui/use-toast'
import { messageOf } from '@/lib/api-client'
import { useJoinWaitlist } from '../api/join-waitlist'

/** One e-mail field and "Join waitlist"; replaced by a confirmation once joined. */
export function WaitlistForm() {
  const [email, setEmail] = React.useState('')
  const [joined, setJoined] = React.useState(false)
  const join = useJoinWaitlist()

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    const address = email.trim()
    if (!address) {
      toast({ title: 'Email required', description: 'Please enter your email address.', variant: 'destructive' })
      return
    }
    join.mutate(
      { email: address },
      {
        onSuccess: () => {
          setJoined(true)
          toast({ title: "You're on the list!", description: "We'll let you know when it's your turn." })
        },
        onError: (error) =>
          toast({
            title: 'Error',
            description: messageOf(error, 'Failed to join waitlist. Please try again.'),
            variant: 'destructive',
          }),
      },
    )
  }

  if (joined) {
    return (
      <div role="status" className="flex items-center justify-center gap-2 rounded-lg bg-white/15 px-4 py-3 text-white backdrop-blur">
        <CheckCircle2 className="size-5" aria-hidden="true" />
        <p>You're on the list! We'll email you when it's your turn.</p>
      </div>
    )
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="flex w-full max-w-md flex-col gap-2 sm:flex-row">
      <Field id="waitlist-email" label="Email address" labelClassName="sr-only" className="flex-1">
        <Input
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="Enter your email"
          autoComplete="email"
          className="border-white/40 bg-white/90 text-zinc-900 placeholder:text-zinc-600"
        />
      </Field>
      <Button type="submit" disabled={join.isPending} className="bg-white text-zinc-900 hover:bg-white/90">
        {join.isPending ? 'Joining...' : 'Join waitlist'}
      </Button>
    </form>
  )
}

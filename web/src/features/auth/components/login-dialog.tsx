import * as React from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { KeyRound, MailCheck } from 'lucide-react'
import { browserSupportsWebAuthnAutofill } from '@simplewebauthn/browser'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Field } from '@/components/ui/field'
import { toast } from '@/components/ui/use-toast'
import { messageOf } from '@/lib/api-client'
import { authKeys } from '@/lib/query-keys'
import {
  type SignInCeremony,
  askForPasskey,
  beginPasskeySignIn,
  cancelPasskeySignIn,
  finishPasskeySignIn,
} from '../api/passkey-sign-in'
import { isPasskeyCancelled, passkeyFailure } from '../lib/passkey-errors'
import { passkeysWorkHere } from '../lib/passkeys-here'
import { useRequestLoginLink } from '../api/request-login-link'
import { useRequestMagicLink } from '../api/request-magic-link'

export type LoginMode = 'signup' | 'login'

interface LoginDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** What the dialog opens as (and goes back to when closed): sign-up by default. */
  mode?: LoginMode
  /** An invite code to start with (an invite link, `/join/{code}`). */
  inviteCode?: string
  /** The page of this site to open once signed in by the e-mailed link (a shared post). */
  returnTo?: string | null
}

/** The invite code field's words when the server refuses the code (`Invalid or expired invite code`). */
const isInviteRefusal = (message: string) => /invite code/i.test(message)

/**
 * "Join Murmur": sign up with an invite code; "Welcome back": log in. Both e-mail a magic link.
 * A member with a passkey signs in with it instead: the button, or the browser's autofill on the
 * e-mail field where it offers passkeys (conditional mediation).
 */
export function LoginDialog({ open, onOpenChange, mode: openedAs = 'signup', inviteCode: givenCode = '', returnTo }: LoginDialogProps) {
  const [mode, setMode] = React.useState<LoginMode>(openedAs)
  const [email, setEmail] = React.useState('')
  const [inviteCode, setInviteCode] = React.useState(givenCode)
  const [inviteError, setInviteError] = React.useState<string | null>(null)
  const [sentTo, setSentTo] = React.useState<string | null>(null)
  // Opened again, maybe from another button: as that button asks.
  const [wasOpen, setWasOpen] = React.useState(open)
  if (open !== wasOpen) {
    setWasOpen(open)
    if (open) {
      setMode(openedAs)
      setInviteCode(givenCode)
    }
  }
  const magicLink = useRequestMagicLink()
  const loginLink = useRequestLoginLink()
  const passkey = usePasskeySignIn(() => handleOpenChange(false))
  const pending = magicLink.isPending || loginLink.isPending || passkey.pending
  const showForm = open && sentTo === null
  const { offerAutofill } = passkey
  React.useEffect(() => {
    if (!showForm) return
    offerAutofill()
    return cancelPasskeySignIn
  }, [showForm, offerAutofill])

  function reset() {
    setMode(openedAs)
    setEmail('')
    setInviteCode('')
    setInviteError(null)
    setSentTo(null)
    magicLink.reset()
    loginLink.reset()
  }

  function handleOpenChange(next: boolean) {
    if (!next) reset()
    onOpenChange(next)
  }

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    const address = email.trim()
    if (!address) {
      toast({ title: 'Email required', description: 'Please enter your email address.', variant: 'destructive' })
      return
    }
    if (mode === 'signup') {
      const code = inviteCode.trim()
      if (!code) {
        toast({ title: 'Invite code required', description: 'Please enter your invite code.', variant: 'destructive' })
        return
      }
      magicLink.mutate(
        { email: address, inviteCode: code },
        {
          onSuccess: () => {
            setSentTo(address)
            toast({ title: 'Check your email!', description: 'We sent you a magic link to log in.' })
          },
          onError: (error) => {
            const message = messageOf(error, 'Failed to send magic link. Please try again.')
            // Said beside the code, where the person fixes it.
            if (isInviteRefusal(message)) setInviteError(message)
            else toast({ title: 'Error', description: message, variant: 'destructive' })
          },
        },
      )
    } else {
      loginLink.mutate(
        { email: address, ...(returnTo ? { next: returnTo } : {}) },
        {
          onSuccess: () => {
            setSentTo(address)
            toast({ title: 'Check your email!', description: "If an account exists, we've sent you a magic link." })
          },
          onError: (error) =>
            toast({
              title: 'Error',
              description: messageOf(error, 'Failed to send login link. Please try again.'),
              variant: 'destructive',
            }),
        },
      )
    }
  }

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>{mode === 'signup' ? 'Join Murmur' : 'Welcome back'}</DialogTitle>
          <DialogDescription>
            {mode === 'signup' ? 'Sign up with your invite code to join Murmur.' : 'Log in to Murmur with your email.'}
          </DialogDescription>
        </DialogHeader>

        {sentTo !== null ? (
          <div className="flex flex-col items-center gap-3 py-2 text-center" role="status">
            <MailCheck className="size-10 text-primary" aria-hidden="true" />
            <h3 className="text-lg font-semibold">Check your email</h3>
            <p className="text-sm text-muted-foreground">
              We sent a magic link to <span className="font-medium text-foreground">{sentTo}</span>.
            </p>
            <p className="text-sm text-muted-foreground">The link expires in 15 minutes.</p>
            <Button
              variant="outline"
              onClick={() => {
                setEmail('')
                setSentTo(null)
              }}
            >
              Back to login
            </Button>
          </div>
        ) : (
          <form className="grid gap-4" onSubmit={handleSubmit} noValidate>
            {mode === 'signup' && (
              <Field
                id="invite-code"
                label="Invite code"
                hint="Murmur is invite-only. Get an invite code from a friend who is already a member."
                error={inviteError}
              >
                <Input
                  value={inviteCode}
                  onChange={(e) => {
                    setInviteCode(e.target.value.toUpperCase())
                    setInviteError(null)
                  }}
                  placeholder="A1B2C3D4E5F6"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                />
              </Field>
            )}
            <Field id="login-email" label="Email">
              <Input
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                placeholder="you@example.com"
                // "webauthn": where the browser supports it, its suggestions here include passkeys.
                autoComplete="username webauthn"
              />
            </Field>
            <Button type="submit" disabled={pending}>
              {magicLink.isPending || loginLink.isPending ? 'Sending...' : 'Send magic link'}
            </Button>
            {passkey.supported && (
              <Button type="button" variant="outline" disabled={pending} onClick={passkey.signIn}>
                <KeyRound aria-hidden="true" />
                {passkey.pending ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
              </Button>
            )}
            <button
              type="button"
              className="text-sm text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              onClick={() => setMode(mode === 'signup' ? 'login' : 'signup')}
            >
              {mode === 'signup' ? 'Already have an account? Log in' : 'New user? Sign up with invite code'}
            </button>
            <p className="text-center text-xs text-muted-foreground">
              By continuing, you agree to our{' '}
              <a href="/terms" target="_blank" rel="noopener" className="underline underline-offset-2 hover:text-foreground">
                Terms of Service
              </a>{' '}
              and{' '}
              <a href="/privacy" target="_blank" rel="noopener" className="underline underline-offset-2 hover:text-foreground">
                Privacy Policy
              </a>
              .
            </p>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}

/**
 * Signing in with a passkey from the dialog: the button (the browser's own dialog) and the
 * autofill offer (waits quietly until the person picks a passkey in the e-mail field's
 * suggestions). On success the member is signed in exactly as by a magic link, and `onSignedIn`
 * closes the dialog.
 */
function usePasskeySignIn(onSignedIn: () => void) {
  const queryClient = useQueryClient()
  const [pending, setPending] = React.useState(false)
  const supported = React.useMemo(() => passkeysWorkHere(), [])
  // The latest callback, without making the autofill offer start again on every render.
  const onSignedInRef = React.useRef(onSignedIn)
  React.useEffect(() => {
    onSignedInRef.current = onSignedIn
  })

  const run = React.useCallback(
    async (autofill: boolean) => {
      let begun: SignInCeremony
      try {
        begun = await beginPasskeySignIn()
      } catch (error) {
        // The offer is only an offer: if it cannot begin, the form works as before.
        if (!autofill) {
          toast({ title: 'Passkey sign-in failed', description: passkeyFailure(error, 'sign-in'), variant: 'destructive' })
        }
        return
      }
      try {
        const credential = await askForPasskey(begun, autofill)
        const user = await finishPasskeySignIn(begun, credential)
        queryClient.setQueryData(authKeys.me(), user)
        await queryClient.invalidateQueries({ queryKey: authKeys.all })
        onSignedInRef.current()
      } catch (error) {
        // A newer ceremony (the button) or the dialog closing stops the autofill offer: no news.
        if (isPasskeyCancelled(error)) return
        toast({ title: 'Passkey sign-in failed', description: passkeyFailure(error, 'sign-in'), variant: 'destructive' })
      }
    },
    [queryClient],
  )

  const offerAutofill = React.useCallback(() => {
    if (!supported) return
    void browserSupportsWebAuthnAutofill().then((available) => {
      if (available) void run(true)
    })
  }, [run, supported])

  const signIn = React.useCallback(() => {
    setPending(true)
    void run(false).finally(() => setPending(false))
  }, [run])

  return { supported, pending, signIn, offerAutofill }
}

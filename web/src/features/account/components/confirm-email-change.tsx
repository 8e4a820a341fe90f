import * as React from 'react'
import { useLocation } from 'wouter'
import { useQueryClient } from '@tanstack/react-query'
import { CheckCircle2, Loader2, XCircle } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Logo } from '@/components/logo'
import { ApiError } from '@/lib/api-client'
import { authKeys } from '@/features/auth'
import { confirmEmailChange } from '../api/confirm-email-change'

type State = { kind: 'loading' } | { kind: 'success'; message: string } | { kind: 'error'; message: string }

function failureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? 'The address could not be changed'
  return 'An error occurred while changing your address'
}

/**
 * Reached from the e-mailed link (`/auth/confirm-email?token=…`): uses the token once, on
 * load, as the login link's page does; a mail scanner that does not run scripts uses nothing.
 */
export function ConfirmEmailChange() {
  const [, navigate] = useLocation()
  const queryClient = useQueryClient()
  const [state, setState] = React.useState<State>(() =>
    new URLSearchParams(window.location.search).get('token')
      ? { kind: 'loading' }
      : { kind: 'error', message: 'No confirmation token found' },
  )
  // A token works once: never send it twice (React may run effects twice in development).
  const started = React.useRef(false)

  React.useEffect(() => {
    if (started.current) return
    const token = new URLSearchParams(window.location.search).get('token')
    if (!token) return
    started.current = true
    confirmEmailChange(token)
      .then(async ({ message }) => {
        // A member's screens read their address afresh.
        await queryClient.invalidateQueries({ queryKey: authKeys.all })
        setState({ kind: 'success', message })
      })
      .catch((error: unknown) => setState({ kind: 'error', message: failureMessage(error) }))
  }, [queryClient])

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 text-center">
      <Logo />
      <div className="flex max-w-sm flex-col items-center gap-3 rounded-xl border border-border p-8" role="status" aria-live="polite">
        {state.kind === 'loading' && (
          <>
            <Loader2 className="size-10 animate-spin text-primary motion-reduce:animate-none" aria-hidden="true" />
            <h1 className="text-2xl font-bold">Confirming...</h1>
            <p className="text-muted-foreground">Please wait while we change your address</p>
          </>
        )}
        {state.kind === 'success' && (
          <>
            <CheckCircle2 className="size-10 text-repost" aria-hidden="true" />
            <h1 className="text-2xl font-bold">Address changed</h1>
            <p className="break-words text-muted-foreground">{state.message}</p>
            <Button onClick={() => navigate('/settings', { replace: true })}>Go to Settings</Button>
          </>
        )}
        {state.kind === 'error' && (
          <>
            <XCircle className="size-10 text-destructive" aria-hidden="true" />
            <h1 className="text-2xl font-bold">Address not changed</h1>
            <p className="break-words text-muted-foreground">{state.message}</p>
            <Button onClick={() => navigate('/', { replace: true })}>Back to home</Button>
          </>
        )}
      </div>
    </main>
  )
}

import * as React from 'react'
import { useLocation } from 'wouter'
import { useQueryClient } from '@tanstack/react-query'
import { CheckCircle2, Loader2, XCircle } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Logo } from '@/components/logo'
import { ApiError } from '@/lib/api-client'
import { authKeys } from '@/features/auth/api/keys'
import { verifyMagicLink } from '@/features/auth/api/verify'

export const VERIFY_REDIRECT_MS = 1500

type State = { kind: 'loading' } | { kind: 'success' } | { kind: 'error'; message: string }

function failureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? 'Verification failed'
  return 'An error occurred during verification'
}

/** Reached from the e-mailed link: exchanges the token for a session, then goes home. */
export default function VerifyRoute() {
  const [, navigate] = useLocation()
  const queryClient = useQueryClient()
  const [state, setState] = React.useState<State>(() => {
    const token = new URLSearchParams(window.location.search).get('token')
    return token ? { kind: 'loading' } : { kind: 'error', message: 'No verification token found' }
  })
  // A token works once: never send it twice (React may run effects twice in development).
  const started = React.useRef(false)

  React.useEffect(() => {
    if (started.current) return
    const params = new URLSearchParams(window.location.search)
    const token = params.get('token')
    if (!token) return
    started.current = true
    verifyMagicLink(token, params.get('invite'))
      .then(async (user) => {
        queryClient.setQueryData(authKeys.me(), user)
        await queryClient.invalidateQueries({ queryKey: authKeys.all })
        setState({ kind: 'success' })
        setTimeout(() => navigate('/', { replace: true }), VERIFY_REDIRECT_MS)
      })
      .catch((error: unknown) => setState({ kind: 'error', message: failureMessage(error) }))
  }, [navigate, queryClient])

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 text-center">
      <Logo />
      <div className="flex max-w-sm flex-col items-center gap-3 rounded-xl border border-border p-8" role="status" aria-live="polite">
        {state.kind === 'loading' && (
          <>
            <Loader2 className="size-10 animate-spin text-primary motion-reduce:animate-none" aria-hidden="true" />
            <h1 className="text-2xl font-bold">Verifying...</h1>
            <p className="text-muted-foreground">Please wait while we log you in</p>
          </>
        )}
        {state.kind === 'success' && (
          <>
            <CheckCircle2 className="size-10 text-repost" aria-hidden="true" />
            <h1 className="text-2xl font-bold">Success!</h1>
            <p className="text-muted-foreground">You're logged in. Taking you home...</p>
          </>
        )}
        {state.kind === 'error' && (
          <>
            <XCircle className="size-10 text-destructive" aria-hidden="true" />
            <h1 className="text-2xl font-bold">Verification failed</h1>
            <p className="text-muted-foreground">{state.message}</p>
            <Button onClick={() => navigate('/', { replace: true })}>Back to home</Button>
          </>
        )}
      </div>
    </main>
  )
}

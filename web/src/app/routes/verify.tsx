import * as React from 'react'
import { useLocation } from 'wouter'
import { useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { StatusScreen } from '@/components/status-screen'
import { ApiError } from '@/lib/api-client'
import { returnPath } from '@/lib/return-path'
import { authKeys } from '@/lib/query-keys'
import { verifyMagicLink } from '@/features/auth/api/verify'
import { takePendingAuthorization } from '@/features/apps'

export const VERIFY_REDIRECT_MS = 1500

type State = { kind: 'loading' } | { kind: 'success'; home: boolean } | { kind: 'error'; message: string }

function failureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? 'Verification failed'
  return 'An error occurred during verification'
}

/**
 * Reached from the e-mailed link: exchanges the token for a session, then goes home, or to the
 * page the link leads on to (`next`, a page of this site only), or back to an app's consent page.
 */
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
        // A member who signed in to let an app connect goes back to its consent page; one who
        // came for a page of this site (a shared post), to it; anyone else, home.
        const next = takePendingAuthorization() ?? returnPath(params.get('next')) ?? '/'
        setState({ kind: 'success', home: next === '/' })
        setTimeout(() => navigate(next, { replace: true }), VERIFY_REDIRECT_MS)
      })
      .catch((error: unknown) => setState({ kind: 'error', message: failureMessage(error) }))
  }, [navigate, queryClient])

  if (state.kind === 'loading') {
    return <StatusScreen status="loading" title="Verifying..." message="Please wait while we log you in" />
  }
  if (state.kind === 'success') {
    const where = state.home ? 'home' : 'back to your page'
    return <StatusScreen status="success" title="Success!" message={`You're logged in. Taking you ${where}...`} />
  }
  return (
    <StatusScreen
      status="error"
      title="Verification failed"
      message={state.message}
      action={<Button onClick={() => navigate('/', { replace: true })}>Back to home</Button>}
    />
  )
}

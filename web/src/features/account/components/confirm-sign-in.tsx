import * as React from 'react'
import { useLocation } from 'wouter'
import { useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { StatusScreen } from '@/components/status-screen'
import { ApiError, isUnauthorized } from '@/lib/api-client'
import { authKeys } from '@/lib/query-keys'
import { verifyMagicLink } from '@/features/auth'
import { confirmWithLink } from '../api/confirm-its-you'

type State = { kind: 'loading' } | { kind: 'confirmed' } | { kind: 'signed-in' } | { kind: 'error'; message: string }

function failureMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? 'The link could not be used'
  return 'An error occurred while confirming'
}

/**
 * Reached from the e-mailed link a member asked for before adding a passkey
 * (`/auth/reauthenticate?token=…`): confirms this browser's session, which may then add a
 * passkey. Opened in a browser without the member's session, it signs that browser in as a login
 * link does (a fresh sign-in counts as well). Uses the token once, on load.
 */
export function ConfirmSignIn() {
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
    confirmWithLink(token)
      .then(() => setState({ kind: 'confirmed' }))
      .catch(async (error: unknown) => {
        if (!isUnauthorized(error)) throw error
        const user = await verifyMagicLink(token, null)
        queryClient.setQueryData(authKeys.me(), user)
        await queryClient.invalidateQueries({ queryKey: authKeys.all })
        setState({ kind: 'signed-in' })
      })
      .catch((error: unknown) => setState({ kind: 'error', message: failureMessage(error) }))
  }, [queryClient])

  const toSettings = <Button onClick={() => navigate('/settings', { replace: true })}>Go to Settings</Button>
  if (state.kind === 'loading') {
    return <StatusScreen status="loading" title="Confirming..." message="Please wait while we confirm it's you" />
  }
  if (state.kind === 'confirmed') {
    return (
      <StatusScreen
        status="success"
        title="It's you"
        message="You can add a passkey in Settings for the next 10 minutes."
        action={toSettings}
      />
    )
  }
  if (state.kind === 'signed-in') {
    return (
      <StatusScreen
        status="success"
        title="You're logged in"
        message="You can add a passkey in Settings for the next 10 minutes."
        action={toSettings}
      />
    )
  }
  return (
    <StatusScreen
      status="error"
      title="Not confirmed"
      message={state.message}
      action={<Button onClick={() => navigate('/', { replace: true })}>Back to home</Button>}
    />
  )
}

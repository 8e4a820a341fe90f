import * as React from 'react'
import { useLocation } from 'wouter'
import { useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { StatusScreen } from '@/components/status-screen'
import { ApiError } from '@/lib/api-client'
import { authKeys } from '@/lib/query-keys'
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

  if (state.kind === 'loading') {
    return <StatusScreen status="loading" title="Confirming..." message="Please wait while we change your address" />
  }
  if (state.kind === 'success') {
    return (
      <StatusScreen
        status="success"
        title="Address changed"
        message={state.message}
        action={<Button onClick={() => navigate('/settings', { replace: true })}>Go to Settings</Button>}
      />
    )
  }
  return (
    <StatusScreen
      status="error"
      title="Address not changed"
      message={state.message}
      action={<Button onClick={() => navigate('/', { replace: true })}>Back to home</Button>}
    />
  )
}

import * as React from 'react'
import { cn } from '@/lib/utils'

/** Where the app goes once the member's account is deleted: the landing page, saying so. */
export const AFTER_DELETION = '/?account=deleted'

const DELETED = 'Your account has been deleted.'

/**
 * "Your account has been deleted." on the page the app went to after the deletion, once: the
 * address loses its mark, so a reload or a shared link says nothing.
 */
export function AccountDeletedNotice({ className }: { className?: string }) {
  const [deleted] = React.useState(() => new URLSearchParams(window.location.search).get('account') === 'deleted')
  const [message, setMessage] = React.useState('')
  React.useEffect(() => {
    if (!deleted) return
    const params = new URLSearchParams(window.location.search)
    params.delete('account')
    const rest = params.toString()
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`)
    // Filled a moment after the empty region is on the page, so screen readers announce it.
    const timer = window.setTimeout(() => setMessage(DELETED), 100)
    return () => window.clearTimeout(timer)
  }, [deleted])
  return (
    <p role="status" className={cn(!message && 'sr-only', className)}>
      {message}
    </p>
  )
}

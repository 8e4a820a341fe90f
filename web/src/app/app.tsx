import * as React from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useLocation } from 'wouter'
import { useMe } from '@/features/auth/api/get-me'
import { feedQueryOptions } from '@/features/posts/api/get-feed'
import { createQueryClient } from '@/lib/query-client'
import { readFirstScreen, seedFirstScreen } from './first-screen'
import { AppProvider } from './provider'
import { loadHome, loadLanding } from './preload'
import { PrepaintDone } from './prepaint-done'

// The landing chunk is preloaded with a visitor's document (crates/server/src/web/mod.rs); who is asking comes
// with the document (first-screen.ts).
const LandingRoute = React.lazy(loadLanding)
const VerifyRoute = React.lazy(() => import('./routes/verify'))
const ConfirmEmailRoute = React.lazy(() => import('./routes/confirm-email'))
const ReauthenticateRoute = React.lazy(() => import('./routes/reauthenticate'))
const AuthorizeRoute = React.lazy(() => import('./routes/authorize'))
const LegalRoute = React.lazy(() => import('./routes/legal'))
// Here rather than in preload.ts, which member-routes.tsx imports: the two would import each other.
const loadMemberRoutes = () => import('./member-routes')
const MemberRoutes = React.lazy(loadMemberRoutes)

// A member's document starts with a picture of the shell over the page (prepaint.tsx); each
// screen below removes it once it is drawn (`PrepaintDone`), so it stays over these fallbacks.
const blank = <div className="min-h-dvh" aria-busy="true" />

/**
 * Visitors see the landing page on any path; members get the app; /auth/verify,
 * /auth/confirm-email and /auth/reauthenticate (the e-mailed links), /oauth/authorize (an app
 * asking to connect) and the default /terms and /privacy are for both.
 */
export function AppRoutes() {
  const [location] = useLocation()
  const me = useMe()
  const queryClient = useQueryClient()
  const isMember = Boolean(me.data)
  // A member opening Home: the shell, Home's chunk and Home's first posts all at once.
  // Once a member is known, for the screen shown then (not again on later navigation).
  const preloadHome = React.useEffectEvent(() => {
    if (location !== '/') return
    void loadMemberRoutes()
    void loadHome()
    void queryClient.prefetchInfiniteQuery(feedQueryOptions())
  })
  React.useEffect(() => {
    if (isMember) preloadHome()
  }, [isMember])

  if (location === '/auth/verify') {
    return (
      <React.Suspense fallback={null}>
        <VerifyRoute />
        <PrepaintDone />
      </React.Suspense>
    )
  }
  if (location === '/auth/confirm-email') {
    return (
      <React.Suspense fallback={null}>
        <ConfirmEmailRoute />
        <PrepaintDone />
      </React.Suspense>
    )
  }
  if (location === '/auth/reauthenticate') {
    return (
      <React.Suspense fallback={null}>
        <ReauthenticateRoute />
        <PrepaintDone />
      </React.Suspense>
    )
  }
  if (location === '/oauth/authorize') {
    return (
      <React.Suspense fallback={null}>
        <AuthorizeRoute />
        <PrepaintDone />
      </React.Suspense>
    )
  }
  if (location === '/terms' || location === '/privacy') {
    return (
      <React.Suspense fallback={null}>
        <LegalRoute page={location === '/terms' ? 'terms' : 'privacy'} />
        <PrepaintDone />
      </React.Suspense>
    )
  }
  if (me.isPending) return blank
  if (!me.data) {
    return (
      <React.Suspense fallback={<div className="min-h-dvh bg-zinc-950" />}>
        <LandingRoute />
        <PrepaintDone />
      </React.Suspense>
    )
  }
  return (
    <React.Suspense fallback={blank}>
      <MemberRoutes />
      <PrepaintDone />
    </React.Suspense>
  )
}

export function App() {
  const [queryClient] = React.useState(() => {
    const client = createQueryClient()
    seedFirstScreen(client, readFirstScreen())
    return client
  })
  return (
    <AppProvider queryClient={queryClient}>
      <AppRoutes />
    </AppProvider>
  )
}

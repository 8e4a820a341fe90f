import * as React from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Route, Switch, useLocation } from 'wouter'
import { useMe } from '@/features/auth/api/get-me'
import { feedQueryOptions } from '@/features/posts/api/get-feed'
import { ComposeProvider } from '@/features/posts/components/compose-provider'
import { AppProvider } from './provider'
import { MemberLayout } from './layouts/member-layout'

// Each screen is its own chunk.
const loadLanding = () => import('./routes/landing')
const LandingRoute = React.lazy(loadLanding)
const VerifyRoute = React.lazy(() => import('./routes/verify'))
const HomeRoute = React.lazy(() => import('./routes/home'))
const DiscoverRoute = React.lazy(() => import('./routes/discover'))
const NotificationsRoute = React.lazy(() => import('./routes/notifications'))
const InvitesRoute = React.lazy(() => import('./routes/invites'))
const ThreadRoute = React.lazy(() => import('./routes/thread'))
const ProfileRoute = React.lazy(() => import('./routes/profile'))
const NotFoundRoute = React.lazy(() => import('./routes/not-found'))

function PageLoading() {
  return (
    <p role="status" className="px-4 py-8 text-center text-muted-foreground">
      Loading...
    </p>
  )
}

function MemberRoutes() {
  const [location] = useLocation()
  const queryClient = useQueryClient()
  // Home's first page of posts comes side by side with Home's chunk, not after it.
  React.useEffect(() => {
    if (location === '/') void queryClient.prefetchInfiniteQuery(feedQueryOptions())
  }, []) // once: for the screen the app opened on
  return (
    <ComposeProvider>
      <MemberLayout>
        <React.Suspense fallback={<PageLoading />}>
          <Switch>
            <Route path="/" component={HomeRoute} />
            <Route path="/discover" component={DiscoverRoute} />
            <Route path="/notifications" component={NotificationsRoute} />
            <Route path="/invites" component={InvitesRoute} />
            <Route path="/post/:id" component={ThreadRoute} />
            <Route path="/profile/:username" component={ProfileRoute} />
            <Route component={NotFoundRoute} />
          </Switch>
        </React.Suspense>
      </MemberLayout>
    </ComposeProvider>
  )
}

/** Visitors see the landing page on any path; members get the app; /auth/verify is for both. */
export function AppRoutes() {
  const [location] = useLocation()
  const me = useMe()
  // Visitors see the landing page on any path: fetch its chunk while /api/auth/me is on its way
  // rather than after (a round trip less before the first paint; 4 KB wasted for members).
  React.useEffect(() => {
    if (location !== '/auth/verify') void loadLanding()
  }, []) // once: for the screen the app opened on

  if (location === '/auth/verify') {
    return (
      <React.Suspense fallback={null}>
        <VerifyRoute />
      </React.Suspense>
    )
  }
  if (me.isPending) return <div className="min-h-dvh" aria-busy="true" />
  if (!me.data) {
    return (
      <React.Suspense fallback={<div className="min-h-dvh bg-zinc-950" />}>
        <LandingRoute />
      </React.Suspense>
    )
  }
  return <MemberRoutes />
}

export function App() {
  return (
    <AppProvider>
      <AppRoutes />
    </AppProvider>
  )
}

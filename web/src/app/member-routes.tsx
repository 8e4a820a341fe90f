import * as React from 'react'
import { Route, Switch } from 'wouter'
import { ComposeProvider } from '@/features/posts/components/compose-provider'
import { MemberLayout } from './layouts/member-layout'
import { loadHome } from './preload'

// Each screen is its own chunk.
const HomeRoute = React.lazy(loadHome)
const DiscoverRoute = React.lazy(() => import('./routes/discover'))
const NotificationsRoute = React.lazy(() => import('./routes/notifications'))
const InvitesRoute = React.lazy(() => import('./routes/invites'))
const ThreadRoute = React.lazy(() => import('./routes/thread'))
const ProfileRoute = React.lazy(() => import('./routes/profile'))
const NotFoundRoute = React.lazy(() => import('./routes/not-found'))

/** What a screen shows while its chunk loads (also in the document's picture of the shell: prepaint.tsx). */
export function PageLoading() {
  return (
    <p role="status" className="px-4 py-8 text-center text-muted-foreground">
      Loading...
    </p>
  )
}

/** The member shell (its menus and dialogs are a chunk visitors never load) and its screens. */
export default function MemberRoutes() {
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

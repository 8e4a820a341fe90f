import * as React from 'react'
import { Redirect, Route, Switch, useRoute } from 'wouter'
import { canModerate, useRole } from '@/features/auth/api/get-me'
import { LiveProvider } from '@/features/live'
import { ComposeProvider } from '@/features/posts/components/compose-provider'
import { MemberLayout } from './layouts/member-layout'
import { loadHome } from './preload'

// Each screen is its own chunk.
const HomeRoute = React.lazy(loadHome)
const HomeAside = React.lazy(() => loadHome().then((module) => ({ default: module.HomeAside })))
const DiscoverRoute = React.lazy(() => import('./routes/discover'))
const NotificationsRoute = React.lazy(() => import('./routes/notifications'))
const BookmarksRoute = React.lazy(() => import('./routes/bookmarks'))
const InvitesRoute = React.lazy(() => import('./routes/invites'))
const ListsRoute = React.lazy(() => import('./routes/lists'))
const ListRoute = React.lazy(() => import('./routes/list'))
const MessagesRoute = React.lazy(() => import('./routes/messages'))
const ThreadRoute = React.lazy(() => import('./routes/thread'))
const ProfileRoute = React.lazy(() => import('./routes/profile'))
const FollowListRoute = React.lazy(() => import('./routes/follow-list'))
const TagRoute = React.lazy(() => import('./routes/tag'))
const SettingsRoute = React.lazy(() => import('./routes/settings'))
const DeleteAccountRoute = React.lazy(() => import('./routes/delete-account'))
const ModerationRoute = React.lazy(() => import('./routes/moderation'))
const ModerationMemberRoute = React.lazy(() => import('./routes/moderation-member'))
const ModerationLogRoute = React.lazy(() => import('./routes/moderation-log'))
const NotFoundRoute = React.lazy(() => import('./routes/not-found'))

/** Messages, with a conversation open or not: one route, so opening one keeps the list as it is. */
const MESSAGES_PATH = '/messages/:id?'

/** A moderators' screen: anyone else gets the 404 page, as for a path that does not exist. */
function ModeratorsOnly({ children }: { children: React.ReactNode }) {
  const role = useRole()
  return canModerate(role) ? children : <NotFoundRoute />
}

/** What a screen shows while its chunk loads (also in the document's picture of the shell: prepaint.tsx). */
export function PageLoading() {
  return (
    <p role="status" className="px-4 py-8 text-center text-muted-foreground">
      Loading...
    </p>
  )
}

/**
 * The member shell (its menus and dialogs are a chunk visitors never load) and its screens, with
 * the tab's live stream while they are mounted.
 */
export default function MemberRoutes() {
  const [onHome] = useRoute('/')
  const [onMessages] = useRoute(MESSAGES_PATH)
  const aside = onHome ? (
    <React.Suspense fallback={null}>
      <HomeAside />
    </React.Suspense>
  ) : undefined
  return (
    <LiveProvider>
      <ComposeProvider>
        <MemberLayout aside={aside} fill={onMessages}>
          <React.Suspense fallback={<PageLoading />}>
            <Switch>
              <Route path="/" component={HomeRoute} />
              <Route path="/discover" component={DiscoverRoute} />
              <Route path="/notifications" component={NotificationsRoute} />
              <Route path="/bookmarks" component={BookmarksRoute} />
              <Route path="/invites" component={InvitesRoute} />
              <Route path="/lists" component={ListsRoute} />
              <Route path="/lists/:id" component={ListRoute} />
              <Route path={MESSAGES_PATH} component={MessagesRoute} />
              <Route path="/post/:id" component={ThreadRoute} />
              <Route path="/profile/:username" component={ProfileRoute} />
              <Route path="/profile/:username/followers">
                <FollowListRoute list="followers" />
              </Route>
              <Route path="/profile/:username/following">
                <FollowListRoute list="following" />
              </Route>
              <Route path="/tag/:name" component={TagRoute} />
              <Route path="/settings" component={SettingsRoute} />
              <Route path="/account/delete" component={DeleteAccountRoute} />
              <Route path="/moderation/log" component={ModerationLogRoute} />
              <Route path="/moderation">
                <ModeratorsOnly>
                  <ModerationRoute />
                </ModeratorsOnly>
              </Route>
              <Route path="/moderation/members/:id">
                <ModeratorsOnly>
                  <ModerationMemberRoute />
                </ModeratorsOnly>
              </Route>
              {/* An invite link opened by someone who is a member already: nothing to join. */}
              <Route path="/join/:code">
                <Redirect to="/" replace />
              </Route>
              <Route component={NotFoundRoute} />
            </Switch>
          </React.Suspense>
        </MemberLayout>
      </ComposeProvider>
    </LiveProvider>
  )
}

import type * as React from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { Router } from 'wouter'
import { ThemeProvider } from '@/components/theme/theme-provider'
import { ComposeProvider } from '@/features/posts/components/compose-provider'
import { PostCard } from '@/features/posts/components/post-card'
import { PostContent } from '@/features/posts/components/post-content'
import { MemberLayout } from './layouts/member-layout'
import { PageLoading } from './member-routes'
import { PREPAINT_ID } from './prepaint-done'
import { HomeHeader, HomeTabs } from './routes/home'

/**
 * Where Home's picture has its first Friends posts: the server draws them there from the post
 * card's template (crates/server/src/web/cards.rs) when it has them, and leaves "Loading..." otherwise.
 */
export const FIRST_CARDS_ID = 'murmur-first-cards'

/**
 * The member shell as static HTML, drawn by the browser before any script has run.
 *
 * Why: a member's first screen waits for ~125 KB of scripts to download and run, which on a
 * slow phone is most of 3 seconds of an empty page (docs/performance-web.md). The server puts
 * this picture of the shell (menus, bar, "Loading...") into a member's document (src/web),
 * so the page shows at once what it will show when the shell's scripts have run, and the app
 * then draws over it and removes it (`PrepaintDone`). On Home the picture is Home's own frame
 * (title, tabs, composer), and the server draws the first Friends posts into it
 * (`FIRST_CARDS_ID`): they are Home's largest paint, which then no longer waits for the scripts.
 *
 * It is rendered at build time from the shell's own components (scripts/prepaint.mjs), so
 * there is one shell to keep, not a copy in HTML. It holds nothing about the member (it is the
 * same for everyone): who they are arrives with the app, and their posts with the server.
 *
 * The picture lies over the page (`fixed`), so the app's own elements never move when it goes
 * (no layout shift), and it is `inert`: nothing in it can be focused or clicked, and screen
 * readers skip it, since its buttons would do nothing before the scripts run.
 */
export function renderPrepaint(path: '/' | 'other'): string {
  // "other": a path no menu item is for, so none is marked as the current page.
  const ssrPath = path === '/' ? '/' : '/-'
  const screen =
    path === '/' ? (
      <>
        <HomeHeader />
        <HomeTabs
          friends={
            <div id={FIRST_CARDS_ID}>
              <PageLoading />
            </div>
          }
          forYou={null}
        />
      </>
    ) : (
      <PageLoading />
    )
  const shell = renderToStaticMarkup(
    <ThemeProvider>
      <QueryClientProvider client={new QueryClient()}>
        <Router ssrPath={ssrPath}>
          <ComposeProvider>
            {/* Home's right column is there, empty, so the main column stands where the app draws it. */}
            <MemberLayout aside={path === '/' ? null : undefined}>{screen}</MemberLayout>
          </ComposeProvider>
        </Router>
      </QueryClientProvider>
    </ThemeProvider>,
  )
  return `<div id="${PREPAINT_ID}" class="fixed inset-0 z-50 overflow-hidden bg-background" inert>${shell}</div>`
}

/** What the server puts in Home's picture in place of `FIRST_CARDS_ID`'s "Loading...". */
export function firstCardsSlot(): string {
  return renderToStaticMarkup(<PageLoading />)
}

/**
 * One post card as Home's list draws it, and one post's text, as static HTML: the web build
 * renders them with sample values to make the card's template (scripts/card-template.mjs),
 * which the server fills to draw Home's first posts (crates/server/src/web/cards.rs).
 */
export function renderPostCard(props: React.ComponentProps<typeof PostCard>): string {
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <Router ssrPath="/">
        <ComposeProvider>
          <PostCard {...props} />
        </ComposeProvider>
      </Router>
    </QueryClientProvider>,
  )
}

export function renderPostContent(props: React.ComponentProps<typeof PostContent>): string {
  return renderToStaticMarkup(
    <Router ssrPath="/">
      <PostContent {...props} />
    </Router>,
  )
}

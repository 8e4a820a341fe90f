import { renderToStaticMarkup } from 'react-dom/server'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { Router } from 'wouter'
import { ThemeProvider } from '@/components/theme/theme-provider'
import { ComposeProvider } from '@/features/posts/components/compose-provider'
import { MemberLayout } from './layouts/member-layout'
import { PageLoading } from './member-routes'
import { PREPAINT_ID } from './prepaint-done'

/**
 * The member shell as static HTML, drawn by the browser before any script has run.
 *
 * Why: a member's first screen waits for ~150 KB of scripts to download and run, which on a
 * slow phone is most of 3 seconds of an empty page (docs/performance-web.md). The server puts
 * this picture of the shell (menus, bar, "Loading...") into a member's document (src/web.rs),
 * so the page shows at once what it will show when the shell's scripts have run, and the app
 * then draws over it and removes it (`PrepaintDone`).
 *
 * It is rendered at build time from the shell's own components (scripts/prepaint.mjs), so
 * there is one shell to keep, not a copy in HTML. It holds nothing about the member (it is the
 * same for everyone): who they are arrives with the app.
 *
 * The picture lies over the page (`fixed`), so the app's own elements never move when it goes
 * (no layout shift), and it is `inert`: nothing in it can be focused or clicked, and screen
 * readers skip it, since its buttons would do nothing before the scripts run.
 */
export function renderPrepaint(path: '/' | 'other'): string {
  // "other": a path no menu item is for, so none is marked as the current page.
  const ssrPath = path === '/' ? '/' : '/-'
  const shell = renderToStaticMarkup(
    <ThemeProvider>
      <QueryClientProvider client={new QueryClient()}>
        <Router ssrPath={ssrPath}>
          <ComposeProvider>
            <MemberLayout>
              <PageLoading />
            </MemberLayout>
          </ComposeProvider>
        </Router>
      </QueryClientProvider>
    </ThemeProvider>,
  )
  return `<div id="${PREPAINT_ID}" class="fixed inset-0 z-50 overflow-hidden bg-background" inert>${shell}</div>`
}

/**
 * A path as the app routes it: without trailing slashes, as the server takes API and OAuth paths
 * (`toot` opens `/oauth/authorize/?…`). `/` stays `/`.
 */
export function withoutTrailingSlash(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  return trimmed === '' ? '/' : trimmed
}

/**
 * Rewrites the page's address without its trailing slash, once at start, so every route (and
 * whatever reads the address later) sees the one path. A path that would then start with `//`
 * (another host's address, to the browser) is left alone.
 */
export function dropTrailingSlash(location: Pick<Location, 'pathname' | 'search' | 'hash'>, history: Pick<History, 'state' | 'replaceState'>) {
  const path = withoutTrailingSlash(location.pathname)
  if (path === location.pathname || path.startsWith('//')) return
  history.replaceState(history.state, '', path + location.search + location.hash)
}

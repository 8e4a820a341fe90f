import type { InfiniteData, QueryClient } from '@tanstack/react-query'
import type { Post, User } from '@/lib/types'
import { authKeys, postKeys } from '@/lib/query-keys'

/**
 * What the server puts in the document for the first screen (crates/server/src/web/mod.rs): who is asking (null
 * for a visitor) and, when a member opens Home, the first page of the Friends feed. With it the
 * first screen is drawn as soon as the scripts have run, without asking /api/auth/me and then
 * the feed one after the other. Under Vite's dev server there is none and the app asks.
 */
export interface FirstScreen {
  me: User | null
  feed?: Post[]
}

export const FIRST_SCREEN_ID = 'murmur-first-screen'

/** Reads (once: the block is removed) the document's first screen, if it has a usable one. */
export function readFirstScreen(doc: Document = document): FirstScreen | undefined {
  const block = doc.getElementById(FIRST_SCREEN_ID)
  if (!block) return undefined
  block.remove()
  try {
    const value: unknown = JSON.parse(block.textContent ?? '')
    if (!value || typeof value !== 'object' || !('me' in value)) return undefined
    const { me, feed } = value as { me: unknown; feed?: unknown }
    if (me !== null && (typeof me !== 'object' || Array.isArray(me))) return undefined
    if (feed !== undefined && !Array.isArray(feed)) return undefined
    return value as FirstScreen
  } catch {
    return undefined
  }
}

/** Puts the first screen into the cache, under the keys the screens' queries use. */
export function seedFirstScreen(queryClient: QueryClient, screen: FirstScreen | undefined): void {
  if (!screen) return
  queryClient.setQueryData(authKeys.me(), screen.me)
  if (screen.me && screen.feed) {
    const firstPage: InfiniteData<Post[], number> = { pages: [screen.feed], pageParams: [0] }
    queryClient.setQueryData(postKeys.feed(), firstPage)
  }
}

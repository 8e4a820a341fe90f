import { Search } from 'lucide-react'
import { useSearchParams } from 'wouter'
import { Input } from '@/components/ui/input'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { useDebounced } from '@/lib/use-debounced'
import type { User } from '@/lib/types'
import { SearchResults } from '@/features/users'
import { PostSearchResults } from './post-search-results'

type SearchTab = 'people' | 'posts'

const PROMPTS: Record<SearchTab, string> = {
  people: 'Search for users...',
  posts: 'Search posts...',
}

const isSearchTab = (value: string): value is SearchTab => value in PROMPTS

const tabOf = (params: URLSearchParams): SearchTab => {
  const asked = params.get('tab') ?? ''
  return isSearchTab(asked) ? asked : 'people'
}

/** The address's part for a search: `?q=…&tab=posts`, leaving out what is the default. */
function searchParams(term: string, tab: SearchTab): URLSearchParams {
  const params = new URLSearchParams()
  if (term) params.set('q', term)
  if (tab !== 'people') params.set('tab', tab)
  return params
}

/**
 * One search box over two tabs: members (by name or username) and posts (by their words). The
 * words and the tab live in the address, so back, reload and a shared link find the same search.
 */
export function DiscoverSearch({ me }: { me: User }) {
  const [params, setParams] = useSearchParams()
  const tab = tabOf(params)
  const term = params.get('q') ?? ''
  const debounced = useDebounced(term.trim(), 300)
  // Typing replaces the history entry (one per search, not per key); choosing a tab adds one,
  // once (a click chooses it twice: on press and on focus, before the page draws again).
  const setTerm = (next: string) => setParams(searchParams(next, tab), { replace: true })
  const setTab = (next: SearchTab) => {
    if (next !== tabOf(new URLSearchParams(window.location.search))) setParams(searchParams(term, next))
  }
  return (
    <Tabs value={tab} onValueChange={(value) => isSearchTab(value) && setTab(value)} className="grid gap-4">
      <form role="search" onSubmit={(e) => e.preventDefault()} className="relative">
        <label htmlFor="discover-search" className="sr-only">
          {PROMPTS[tab]}
        </label>
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <Input
          id="discover-search"
          type="search"
          value={term}
          onChange={(e) => setTerm(e.target.value)}
          placeholder={PROMPTS[tab]}
          className="pl-9"
        />
      </form>
      <TabsList aria-label="Search in">
        <TabsTrigger value="people">People</TabsTrigger>
        <TabsTrigger value="posts">Posts</TabsTrigger>
      </TabsList>
      {/* An empty panel takes no room (no gap) until there is something to show. */}
      <TabsContent value="people" className="mt-0 empty:hidden">
        {debounced ? <SearchResults term={debounced} me={me} /> : null}
      </TabsContent>
      <TabsContent value="posts" className="mt-0 empty:hidden">
        {debounced ? <PostSearchResults query={debounced} currentUserId={me.id} /> : null}
      </TabsContent>
    </Tabs>
  )
}

import * as React from 'react'
import { Search } from 'lucide-react'
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

/** One search box over two tabs: members (by name or username) and posts (by their words). */
export function DiscoverSearch({ me }: { me: User }) {
  const [tab, setTab] = React.useState<SearchTab>('people')
  const [term, setTerm] = React.useState('')
  const debounced = useDebounced(term.trim(), 300)
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

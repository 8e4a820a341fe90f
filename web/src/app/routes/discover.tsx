import * as React from 'react'
import { Search } from 'lucide-react'
import { Input } from '@/components/ui/input'
import { useDebounced } from '@/lib/use-debounced'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { TrendingCard } from '@/features/discover/components/trending-card'
import { SearchResults } from '@/features/users/components/search-results'
import { WhoToFollow } from '@/features/users/components/who-to-follow'
import { PageHeader } from './page-header'

export default function DiscoverRoute() {
  const { data: me, isPending } = useCurrentUser()
  const [term, setTerm] = React.useState('')
  const debounced = useDebounced(term.trim(), 300)
  return (
    <>
      <PageHeader title="Discover" />
      {isPending ? null : !me ? (
        <p className="px-4 py-10 text-center text-muted-foreground">Please log in to discover users.</p>
      ) : (
        <div className="grid gap-4 p-4">
          <form role="search" onSubmit={(e) => e.preventDefault()} className="relative">
            <label htmlFor="user-search" className="sr-only">
              Search for users...
            </label>
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <Input
              id="user-search"
              type="search"
              value={term}
              onChange={(e) => setTerm(e.target.value)}
              placeholder="Search for users..."
              className="pl-9"
            />
          </form>
          {debounced && <SearchResults term={debounced} me={me} />}
          <TrendingCard />
          <WhoToFollow me={me} />
        </div>
      )}
    </>
  )
}

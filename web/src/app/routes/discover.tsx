import * as React from 'react'
import { Search } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { FollowButton } from '@/features/follows/components/follow-button'
import { useSuggestedUsers } from '@/features/users/api/get-suggested'
import { useSearchUsers } from '@/features/users/api/search-users'
import { UserRow } from '@/features/users/components/user-row'
import type { User } from '@/lib/types'
import { PageHeader } from './page-header'

// A fixed showcase (spec: static, six entries, made-up counts).
const TRENDING = [
  { topic: 'WebDev', category: 'Technology', posts: '12.4K posts' },
  { topic: 'UIDesign', category: 'Design', posts: '8.1K posts' },
  { topic: 'BuildInPublic', category: 'Startups', posts: '5.6K posts' },
  { topic: 'AI', category: 'Technology', posts: '31.2K posts' },
  { topic: 'React', category: 'Programming', posts: '9.8K posts' },
  { topic: 'Design', category: 'Creative', posts: '15.3K posts' },
]

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = React.useState(value)
  React.useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return debounced
}

function FollowAction({ user, me }: { user: User; me: User }) {
  if (user.id === me.id) return null
  return <FollowButton userId={user.id} displayName={user.displayName} />
}

function SearchResults({ term, me }: { term: string; me: User }) {
  const results = useSearchUsers(term)
  return (
    <Card role="region" aria-labelledby="search-results-title">
      <CardHeader>
        <CardTitle id="search-results-title">Search Results</CardTitle>
      </CardHeader>
      <CardContent>
        {results.isFetching ? (
          <p role="status" className="text-muted-foreground">
            Searching...
          </p>
        ) : results.error ? (
          <p role="alert" className="text-destructive">
            {results.error.message}
          </p>
        ) : results.data && results.data.length > 0 ? (
          <ul className="divide-y divide-border">
            {results.data.map((user) => (
              <UserRow key={user.id} user={user} action={<FollowAction user={user} me={me} />} />
            ))}
          </ul>
        ) : (
          <p className="text-muted-foreground">No users found matching "{term}"</p>
        )}
      </CardContent>
    </Card>
  )
}

function TrendingCard() {
  return (
    <Card role="region" aria-labelledby="trending-title">
      <CardHeader>
        <CardTitle id="trending-title">Trending</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-border">
          {TRENDING.map((item) => (
            <li key={item.topic} className="py-2">
              <p className="text-xs text-muted-foreground">{item.category} · Trending</p>
              <p className="font-semibold">#{item.topic}</p>
              <p className="text-xs text-muted-foreground">{item.posts}</p>
            </li>
          ))}
        </ul>
        <Button variant="link" className="px-0" type="button">
          Show more
        </Button>
      </CardContent>
    </Card>
  )
}

function WhoToFollow({ me }: { me: User }) {
  const suggested = useSuggestedUsers()
  return (
    <Card role="region" aria-labelledby="who-to-follow-title">
      <CardHeader>
        <CardTitle id="who-to-follow-title">Who to follow</CardTitle>
      </CardHeader>
      <CardContent>
        {suggested.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading suggestions...
          </p>
        ) : !suggested.data || suggested.data.length === 0 ? (
          <p className="text-muted-foreground">No suggestions available.</p>
        ) : (
          <ul className="divide-y divide-border">
            {suggested.data.map((user) => (
              <UserRow key={user.id} user={user} action={<FollowAction user={user} me={me} />} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

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

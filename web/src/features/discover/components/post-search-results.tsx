import * as React from 'react'
import { Card, CardHeader, CardTitle } from '@/components/ui/card'
import { ApiError } from '@/lib/api-client'
import { PostList } from '@/features/posts'
import { useSearchPosts } from '../api/search-posts'
import { highlightTerms } from '../lib/search-terms'

/** The posts matching `query`, its words marked; a query the server refuses gets its reason. */
export function PostSearchResults({ query, currentUserId }: { query: string; currentUserId?: number }) {
  const results = useSearchPosts(query)
  const highlight = React.useMemo(() => highlightTerms(query), [query])
  const refused = results.error instanceof ApiError && results.error.status === 400 ? results.error.serverMessage : undefined
  if (refused) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {refused}
      </p>
    )
  }
  return (
    // The last post's own line would double the card's border; on a phone the card's own
    // margins leave the posts' actions too little room for one row unless their padding gives.
    <Card role="region" aria-labelledby="post-results-title" className="overflow-hidden max-sm:[&_article]:px-3 [&_article:last-child]:border-b-0">
      <CardHeader className="border-b border-border">
        <CardTitle id="post-results-title">Search Results</CardTitle>
      </CardHeader>
      <PostList query={results} currentUserId={currentUserId} empty={<p>No posts match “{query}”.</p>} highlight={highlight} />
    </Card>
  )
}

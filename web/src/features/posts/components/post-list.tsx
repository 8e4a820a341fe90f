import * as React from 'react'
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Post } from '@/lib/types'
import type { HighlightTerm } from '../lib/highlight'
import { MutedWordFold } from './muted-word-fold'
import { PostCard } from './post-card'

interface PostListProps {
  query: UseInfiniteQueryResult<InfiniteData<Post[], unknown>, Error>
  currentUserId?: number
  empty: React.ReactNode
  likeErrorDescription?: string
  /** A search's words, marked in each post. */
  highlight?: readonly HighlightTerm[]
}

/** Posts whose images load eagerly: about a phone screen's worth at the top of the list. */
const PRIORITY_POSTS = 2

/** A paged list of post cards with "Load more posts" after a full page. */
export function PostList({ query, currentUserId, empty, likeErrorDescription, highlight }: PostListProps) {
  const { data, error, isPending, hasNextPage, fetchNextPage, isFetchingNextPage, refetch, isRefetching } = query

  React.useEffect(() => {
    if (error) handleUnauthorized(error)
  }, [error])

  if (isPending) {
    return (
      <p className="px-4 py-8 text-center text-muted-foreground" role="status">
        Loading...
      </p>
    )
  }
  if (error) return <LoadError what="These posts" onRetry={() => void refetch()} retrying={isRefetching} />
  const posts = data?.pages.flat() ?? []
  return (
    <div>
      {posts.length === 0 ? (
        <div className="px-4 py-10 text-center text-muted-foreground">{empty}</div>
      ) : (
        <div>
          {posts.map((post, index) => {
            const card = (
              <PostCard
                post={post}
                currentUserId={currentUserId}
                likeErrorDescription={likeErrorDescription}
                priority={index < PRIORITY_POSTS}
                highlight={highlight}
              />
            )
            // On a profile, a post holding a word the member mutes is folded, as in threads.
            return post.hiddenByMutedWord === true ? (
              <MutedWordFold key={post.id}>{card}</MutedWordFold>
            ) : (
              <React.Fragment key={post.id}>{card}</React.Fragment>
            )
          })}
        </div>
      )}
      {hasNextPage && (
        <div className="flex justify-center p-4">
          <Button variant="outline" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading...' : 'Load more posts'}
          </Button>
        </div>
      )}
    </div>
  )
}

import * as React from 'react'
import { useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query'
import { PAGE_SIZE, type Post } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'
import { postPagesOptions } from './list-query'

/**
 * The Friends feed goes on after a full page: a page covers 20 entries of the feed but shows one
 * card per post (a post reposted within it shows once, its card standing for `feedEntries`), so
 * a page of fewer cards may still be full.
 */
export function feedHasMore(lastPage: Post[]): boolean {
  return lastPage.reduce((entries, post) => entries + (post.feedEntries ?? 1), 0) === PAGE_SIZE
}

/** Friends: posts and reposts by people the member follows. */
export const feedQueryOptions = () => postPagesOptions(postKeys.feed(), '/api/posts/feed', 0, feedHasMore)

export function useFeed(enabled = true) {
  return useInfiniteQuery({ ...feedQueryOptions(), enabled })
}

/** The ids of the posts the Friends feed has loaded; undefined until its first page is in. */
export function useFeedPostIds(): ReadonlySet<number> | undefined {
  const { data } = useFeed()
  return React.useMemo(() => (data ? new Set(data.pages.flat().map((post) => post.id)) : undefined), [data])
}

/** Loads the Friends feed's newest page again, dropping the pages after it (the reader goes back to the top). */
export async function refetchFeedFirstPage(queryClient: QueryClient) {
  queryClient.setQueryData<InfiniteData<Post[], number>>(postKeys.feed(), (data) =>
    data ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } : data,
  )
  await queryClient.refetchQueries({ queryKey: postKeys.feed(), exact: true })
}

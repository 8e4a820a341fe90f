import { useInfiniteQuery } from '@tanstack/react-query'
import { postKeys } from './keys'
import { postPagesOptions } from './list-query'

/** Friends: posts and reposts by people the member follows. */
export const feedQueryOptions = () => postPagesOptions(postKeys.feed(), '/api/posts/feed')

export function useFeed(enabled = true) {
  return useInfiniteQuery({ ...feedQueryOptions(), enabled })
}

import { useInfiniteQuery } from '@tanstack/react-query'
import { postKeys } from '@/lib/query-keys'
import { postPagesOptions } from './list-query'

export const forYouQueryOptions = () => postPagesOptions(postKeys.forYou(), '/api/posts/for-you')

export function useForYou(enabled = true) {
  return useInfiniteQuery({ ...forYouQueryOptions(), enabled })
}

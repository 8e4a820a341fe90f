import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query'
import { handleUnauthorized } from '@/lib/unauthorized'
import type { Post } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { updatePostEverywhere } from './post-cache'

interface PostToggle<Answer> {
  /** Names the mutation: `like`, `repost`, `bookmark`. */
  name: string
  postId: number
  send: (on: boolean) => Promise<Answer>
  /** The post with the toggle on or off (unchanged when it already is). */
  mark: (post: Post, on: boolean) => Post
  /** The server's figures written back from the last click's answer. */
  written?: (post: Post, answer: Answer) => Post
  /** After the last click's success: lists that gain or lose the post are read again. */
  succeeded?: (queryClient: QueryClient) => void
  errorDescription: string
}

/**
 * A member's toggle on a post (like, repost, bookmark), optimistic: the mark changes at once
 * and reverts on failure. Clicks on one post run one after another (mutation scope), and only
 * the last answer is written back, so quick clicks never race.
 */
export function usePostToggle<Answer>({ name, postId, send, mark, written, succeeded, errorDescription }: PostToggle<Answer>) {
  const queryClient = useQueryClient()
  const isLast = () => queryClient.isMutating({ mutationKey: [name, postId] }) <= 1
  return useMutation({
    mutationKey: [name, postId],
    scope: { id: `${name}-${postId}` },
    mutationFn: send,
    onMutate: (on: boolean) => {
      updatePostEverywhere(queryClient, postId, (post) => mark(post, on))
    },
    onError: (error, on) => {
      updatePostEverywhere(queryClient, postId, (post) => mark(post, !on))
      if (!handleUnauthorized(error)) toast({ title: 'Error', description: errorDescription, variant: 'destructive' })
    },
    onSuccess: (answer) => {
      if (!isLast()) return
      if (written && answer) updatePostEverywhere(queryClient, postId, (post) => written(post, answer))
      succeeded?.(queryClient)
    },
  })
}

/** A flag and its count moved together (a like, a repost). */
export function counted<F extends 'isLiked' | 'isReposted', C extends 'likeCount' | 'repostCount'>(flag: F, count: C) {
  return (post: Post, on: boolean): Post =>
    post[flag] === on ? post : { ...post, [flag]: on, [count]: Math.max(0, post[count] + (on ? 1 : -1)) }
}

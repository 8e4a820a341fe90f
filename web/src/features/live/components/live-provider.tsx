import * as React from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { handleLiveEvent } from '../lib/handle-live-event'
import { createLiveConnection, type LiveConnection } from '../lib/live-connection'
import { addNewPostIds } from '../lib/new-posts'

type FollowPost = (postId: number | null) => void

interface NewFeedPosts {
  /** Posts that reached the Friends timeline since the feed was last brought up to date. */
  postIds: readonly number[]
  clear: () => void
}

const FollowPostContext = React.createContext<FollowPost | null>(null)
const NewFeedPostsContext = React.createContext<NewFeedPosts>({ postIds: [], clear: () => {} })

/**
 * The tab's one live stream (GET /api/events) while the member screens are mounted, that is
 * while someone is logged in; it closes when they go (logout unmounts them).
 */
export function LiveProvider({ children }: { children: React.ReactNode }) {
  const queryClient = useQueryClient()
  const [newFeedPostIds, setNewFeedPostIds] = React.useState<readonly number[]>([])
  const connection = React.useRef<LiveConnection | null>(null)
  // A thread screen may ask to be followed before the stream exists (child effects run first).
  const followedPost = React.useRef<number | null>(null)

  React.useEffect(() => {
    if (typeof EventSource === 'undefined') return
    const live = createLiveConnection({
      open: (url) => new EventSource(url),
      onEvent: (event) =>
        handleLiveEvent(event, {
          queryClient,
          addNewFeedPosts: (postIds) => setNewFeedPostIds((pending) => addNewPostIds(pending, postIds)),
        }),
    })
    live.follow(followedPost.current)
    live.start()
    connection.current = live
    return () => {
      live.close()
      connection.current = null
    }
  }, [queryClient])

  const followPost = React.useCallback<FollowPost>((postId) => {
    followedPost.current = postId
    connection.current?.follow(postId)
  }, [])
  const newFeedPosts = React.useMemo(() => ({ postIds: newFeedPostIds, clear: () => setNewFeedPostIds([]) }), [newFeedPostIds])

  return (
    <FollowPostContext.Provider value={followPost}>
      <NewFeedPostsContext.Provider value={newFeedPosts}>{children}</NewFeedPostsContext.Provider>
    </FollowPostContext.Provider>
  )
}

/** While mounted, the tab's stream also carries post `postId`'s counts (the open thread). */
export function useLivePost(postId: number | null) {
  const followPost = React.useContext(FollowPostContext)
  React.useEffect(() => {
    if (!followPost || postId === null) return
    followPost(postId)
    return () => followPost(null)
  }, [followPost, postId])
}

export function useNewFeedPosts(): NewFeedPosts {
  return React.useContext(NewFeedPostsContext)
}

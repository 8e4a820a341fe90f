import { Button } from '@/components/ui/button'
import { useFeed } from '../api/get-feed'
import { useForYou } from '../api/get-for-you'
import { PostList } from './post-list'

/** Posts from the members one follows. */
export function FriendsFeed({ currentUserId }: { currentUserId: number }) {
  const feed = useFeed()
  return (
    <PostList
      query={feed}
      currentUserId={currentUserId}
      empty={<p>No posts from people you follow yet. Try following some users!</p>}
    />
  )
}

/** Posts from across Murmur. */
export function ForYouFeed({ currentUserId }: { currentUserId: number }) {
  const feed = useForYou()
  return (
    <PostList
      query={feed}
      currentUserId={currentUserId}
      empty={
        <div className="flex flex-col items-center gap-3">
          <p>No posts to show. Check back later for fresh content!</p>
          <Button variant="outline" onClick={() => void feed.refetch()} disabled={feed.isFetching}>
            Refresh
          </Button>
        </div>
      }
    />
  )
}

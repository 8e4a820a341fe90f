import * as React from 'react'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { handleUnauthorized } from '@/lib/unauthorized'
import { THREAD_REPLIES, type Post } from '@/lib/types'
import { useMoreReplies } from '../api/get-replies'
import { ThreadPost } from './thread-post'

/** The thread call's replies, then, on request, the ones after them, a page at a time. */
export function ThreadReplies({ postId, first, currentUserId }: { postId: number; first: Post[]; currentUserId?: number }) {
  const [wantMore, setWantMore] = React.useState(false)
  const more = useMoreReplies(postId, wantMore)
  React.useEffect(() => {
    if (more.error) handleUnauthorized(more.error)
  }, [more.error])
  const later = more.data?.pages.flat() ?? []
  const shown = [...first, ...later.filter((reply) => !first.some((p) => p.id === reply.id))]
  const canAskMore = first.length >= THREAD_REPLIES && (!wantMore || (more.hasNextPage && !more.isFetching))
  const loading = wantMore && (more.isPending || more.isFetchingNextPage)
  return (
    <section aria-labelledby="replies-heading">
      <h2 id="replies-heading" className="px-4 pt-3 text-lg font-semibold">
        Replies
      </h2>
      {shown.length === 0 ? (
        <p className="px-4 py-6 text-muted-foreground">No replies yet.</p>
      ) : (
        shown.map((post) => <ThreadPost key={post.id} post={post} currentUserId={currentUserId} />)
      )}
      {more.error && <LoadError what="More replies" onRetry={() => void more.refetch()} retrying={more.isRefetching} />}
      {(canAskMore || loading) && !more.error && (
        <div className="flex justify-center p-4">
          <Button
            variant="outline"
            disabled={loading}
            onClick={() => (wantMore ? void more.fetchNextPage() : setWantMore(true))}
          >
            {loading ? 'Loading...' : 'Load more replies'}
          </Button>
        </div>
      )}
    </section>
  )
}

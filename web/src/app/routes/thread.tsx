import * as React from 'react'
import { Link, useParams } from 'wouter'
import { ArrowLeft, MessageCircle } from 'lucide-react'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { ApiError } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { THREAD_REPLIES, type Post } from '@/lib/types'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useMoreReplies } from '@/features/posts/api/get-replies'
import { useThread } from '@/features/posts/api/get-thread'
import { useCompose } from '@/features/posts/components/compose-provider'
import { PostCard } from '@/features/posts/components/post-card'
import { PageHeader } from './page-header'

/** The thread call's replies, then, on request, the ones after them, a page at a time. */
function Replies({ postId, first, currentUserId }: { postId: number; first: Post[]; currentUserId?: number }) {
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
        shown.map((post) => <PostCard key={post.id} post={post} currentUserId={currentUserId} hideReplyContext />)
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

export default function ThreadRoute() {
  const params = useParams<{ id: string }>()
  const id = Number(params.id)
  const { data: me } = useCurrentUser()
  const thread = useThread(id)
  const { openCompose } = useCompose()

  React.useEffect(() => {
    if (thread.error) handleUnauthorized(thread.error)
  }, [thread.error])

  const missing = !Number.isFinite(id) || (thread.error instanceof ApiError && thread.error.status === 404)

  return (
    <>
      <PageHeader
        title="Thread"
        before={
          <Button asChild variant="ghost" size="icon" aria-label="Back">
            <Link href="/">
              <ArrowLeft className="size-5" aria-hidden="true" />
            </Link>
          </Button>
        }
      />
      {missing ? (
        <p className="px-4 py-10 text-center text-muted-foreground">Post not found</p>
      ) : thread.error ? (
        <LoadError what="This post" onRetry={() => void thread.refetch()} retrying={thread.isRefetching} />
      ) : thread.isPending ? (
        <p role="status" className="px-4 py-10 text-center text-muted-foreground">
          Loading...
        </p>
      ) : (
        <>
          {(thread.data.ancestors ?? []).length > 0 && (
            <section aria-label="Earlier in the thread" className="border-l-2 border-primary/30">
              {(thread.data.ancestors ?? []).map((post) => (
                <PostCard key={post.id} post={post} currentUserId={me?.id} hideReplyContext />
              ))}
            </section>
          )}
          <PostCard post={thread.data.post} currentUserId={me?.id} emphasis priority />
          <div className="flex justify-end border-b border-border px-4 py-2">
            <Button className="rounded-full" onClick={() => openCompose({ replyTo: thread.data.post.repostOf ?? thread.data.post })}>
              <MessageCircle aria-hidden="true" /> Reply
            </Button>
          </div>
          <Replies
            key={thread.data.post.id}
            postId={thread.data.post.id}
            first={thread.data.replies}
            currentUserId={me?.id}
          />
        </>
      )}
    </>
  )
}

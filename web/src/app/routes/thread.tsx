import * as React from 'react'
import { Link, useParams } from 'wouter'
import { ArrowLeft, MessageCircle } from 'lucide-react'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { ApiError } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useLivePost } from '@/features/live'
import { useThread } from '@/features/posts/api/get-thread'
import { useCompose } from '@/features/posts/components/compose-provider'
import { PostCard } from '@/features/posts/components/post-card'
import { ThreadReplies } from '@/features/posts/components/thread-replies'
import { ThreadPost } from '@/features/posts/components/thread-post'
import { PageHeader } from './page-header'

export default function ThreadRoute() {
  const params = useParams<{ id: string }>()
  const id = Number(params.id)
  const { data: me } = useCurrentUser()
  const thread = useThread(id)
  const { openCompose } = useCompose()
  // The stream carries the counts of the post shown in full: a repost's are its original's.
  const shown = thread.data ? (thread.data.post.repostOf ?? thread.data.post) : undefined
  useLivePost(shown?.id ?? (Number.isFinite(id) ? id : null))

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
                <ThreadPost key={post.id} post={post} currentUserId={me?.id} />
              ))}
            </section>
          )}
          <PostCard post={thread.data.post} currentUserId={me?.id} emphasis priority />
          {/* A post moderators removed takes no more replies (its author alone still opens it). */}
          {!thread.data.post.isRemoved && (
            <div className="flex justify-end border-b border-border px-4 py-2">
              <Button className="rounded-full" onClick={() => openCompose({ replyTo: thread.data.post.repostOf ?? thread.data.post })}>
                <MessageCircle aria-hidden="true" /> Reply
              </Button>
            </div>
          )}
          <ThreadReplies
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

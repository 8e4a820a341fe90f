import * as React from 'react'
import { LoadError } from '@/components/load-error'
import { ApiError } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { plural } from '@/lib/utils'
import { PostList } from '@/features/posts'
import { useTag } from '../api/get-tag'
import { useTagPosts } from '../api/get-tag-posts'

/** A tag's week in numbers, then its posts, newest first; an invalid tag gets the server's reason. */
export function TagPosts({ name, currentUserId }: { name: string; currentUserId?: number }) {
  const tag = useTag(name)
  // Asked only for a tag the server took: an invalid one would be refused twice.
  const posts = useTagPosts(name, tag.isSuccess)

  React.useEffect(() => {
    if (tag.error) handleUnauthorized(tag.error)
  }, [tag.error])

  if (tag.error) {
    const refused = tag.error instanceof ApiError && tag.error.status === 400 ? tag.error.serverMessage : undefined
    return refused ? (
      <p role="alert" className="px-4 py-10 text-center text-muted-foreground">
        {refused}
      </p>
    ) : (
      <LoadError what="This tag" onRetry={() => void tag.refetch()} retrying={tag.isRefetching} />
    )
  }
  return (
    <>
      <p className="border-b border-border px-4 py-2 text-sm text-muted-foreground">
        {/* a line tall while it loads, so the posts below do not move */}
        {tag.data ? `${plural(tag.data.postCount, 'post')} · ${plural(tag.data.peopleCount, 'person', 'people')} this week` : '\u00a0'}
      </p>
      <PostList query={posts} currentUserId={currentUserId} empty={<p>No posts with #{tag.data?.name ?? name} yet.</p>} />
    </>
  )
}

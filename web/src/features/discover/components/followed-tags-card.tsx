import * as React from 'react'
import { Link } from 'wouter'
import { Hash } from 'lucide-react'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useFollowedTags } from '../api/get-followed-tags'
import { useToggleTagFollow } from '../api/toggle-tag-follow'

/** Settings: the tags the member follows, each with Unfollow (following is on a tag's page). */
export function FollowedTagsCard() {
  const tags = useFollowedTags()
  const toggle = useToggleTagFollow()
  React.useEffect(() => {
    if (tags.error) handleUnauthorized(tags.error)
  }, [tags.error])
  const id = 'followed-tags-title'
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader>
        <CardTitle id={id}>Followed tags</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2">
        <p className="text-sm text-muted-foreground">New posts with these tags appear in your Friends feed, marked with the tag.</p>
        {tags.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading...
          </p>
        ) : tags.error ? (
          <LoadError what="Followed tags" onRetry={() => void tags.refetch()} retrying={tags.isRefetching} />
        ) : tags.data.length === 0 ? (
          <p className="text-muted-foreground">You don't follow any tags. Open a tag and choose Follow.</p>
        ) : (
          <ul className="divide-y divide-border">
            {tags.data.map((tag) => (
              <li key={tag.name} className="flex items-center gap-3 py-2">
                <Hash className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                <Link href={`/tag/${encodeURIComponent(tag.name)}`} className="min-w-0 flex-1 truncate font-medium hover:underline">
                  {tag.name}
                </Link>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Unfollow #${tag.name}`}
                  disabled={toggle.isPending && toggle.variables?.name === tag.name}
                  onClick={() => toggle.mutate({ name: tag.name, follow: false })}
                >
                  Unfollow
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

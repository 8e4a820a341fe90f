import { Link, useParams } from 'wouter'
import { ArrowLeft } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useTag } from '@/features/discover/api/get-tag'
import { useToggleTagFollow } from '@/features/discover/api/toggle-tag-follow'
import { TagPosts } from '@/features/discover/components/tag-posts'
import { PageHeader } from './page-header'

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

export default function TagRoute() {
  const params = useParams<{ name: string }>()
  const name = decoded(params.name ?? '')
  const { data: me } = useCurrentUser()
  const tag = useTag(name)
  const toggle = useToggleTagFollow()
  const following = tag.data?.isFollowing ?? false
  const shownName = tag.data?.name ?? name
  return (
    <>
      <PageHeader
        // as first written on this instance, once the server has said
        title={`#${shownName}`}
        before={
          <Button asChild variant="ghost" size="icon" aria-label="Back to home">
            <Link href="/">
              <ArrowLeft className="size-5" aria-hidden="true" />
            </Link>
          </Button>
        }
      >
        {tag.data && (
          <Button
            variant={following ? 'outline' : 'default'}
            size="sm"
            aria-pressed={following}
            disabled={toggle.isPending}
            onClick={() => toggle.mutate({ name: shownName, follow: !following })}
          >
            {following ? 'Following' : 'Follow'}
            {/* The visible word stays part of the name screen readers hear. */}
            <span className="sr-only"> #{shownName}</span>
          </Button>
        )}
      </PageHeader>
      <TagPosts name={name} currentUserId={me?.id} />
    </>
  )
}

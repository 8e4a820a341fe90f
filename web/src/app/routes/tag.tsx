import { Link, useParams } from 'wouter'
import { ArrowLeft } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useTag } from '@/features/discover/api/get-tag'
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
  return (
    <>
      <PageHeader
        // as first written on this instance, once the server has said
        title={`#${tag.data?.name ?? name}`}
        before={
          <Button asChild variant="ghost" size="icon" aria-label="Back to home">
            <Link href="/">
              <ArrowLeft className="size-5" aria-hidden="true" />
            </Link>
          </Button>
        }
      />
      <TagPosts name={name} currentUserId={me?.id} />
    </>
  )
}

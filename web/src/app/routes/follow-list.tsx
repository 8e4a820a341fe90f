import { Link, useParams } from 'wouter'
import { ArrowLeft } from 'lucide-react'
import { Button } from '@/components/ui/button'
import type { FollowList as FollowListKind } from '@/lib/query-keys'
import { useCurrentUser } from '@/features/auth'
import { FollowList, followListTitles } from '@/features/users/components/follow-list'
import { PageHeader } from './page-header'

/** `/profile/{username}/followers` and `/following`. */
export default function FollowListRoute({ list }: { list: FollowListKind }) {
  const params = useParams<{ username: string }>()
  const username = decodeURIComponent(params.username ?? '')
  const { data: me } = useCurrentUser()
  const back = (
    <Button asChild variant="ghost" size="icon" aria-label={`Back to @${username}`}>
      <Link href={`/profile/${encodeURIComponent(username)}`}>
        <ArrowLeft className="size-5" aria-hidden="true" />
      </Link>
    </Button>
  )
  return (
    <>
      <PageHeader title={`${followListTitles[list]} · @${username}`} before={back} />
      <FollowList key={`${list}-${username}`} username={username} list={list} me={me} />
    </>
  )
}

import { useCurrentUser } from '@/features/auth/api/get-user'
import { DiscoverSearch } from '@/features/discover/components/discover-search'
import { TrendingCard } from '@/features/discover/components/trending-card'
import { WhoToFollow } from '@/features/users/components/who-to-follow'
import { PageHeader } from './page-header'

export default function DiscoverRoute() {
  const { data: me, isPending } = useCurrentUser()
  return (
    <>
      <PageHeader title="Discover" />
      {isPending ? null : !me ? (
        <p className="px-4 py-10 text-center text-muted-foreground">Please log in to discover users.</p>
      ) : (
        <div className="grid gap-4 p-4">
          <DiscoverSearch me={me} />
          <TrendingCard />
          <WhoToFollow me={me} />
        </div>
      )}
    </>
  )
}

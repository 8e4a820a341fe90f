import type * as React from 'react'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { ModeToggle } from '@/components/theme/mode-toggle'
import { useMediaQuery } from '@/lib/use-media-query'
import { useMe } from '@/features/auth/api/get-me'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { TrendingCard } from '@/features/discover/components/trending-card'
import { NewPostsButton } from '@/features/live'
import { Composer } from '@/features/posts/components/composer'
import { ForYouFeed, FriendsFeed } from '@/features/posts/components/home-feeds'
import { FirstRunStep } from '@/features/users/components/first-run-step'
import { Welcome } from '@/features/users/components/welcome'
import { WhoToFollow } from '@/features/users/components/who-to-follow'
import { PageHeader } from './page-header'

/** Home's right column on wide screens: who to follow and what is trending, as on Discover. */
export function HomeAside() {
  const { data: me } = useCurrentUser()
  // The column is hidden below this width (member-layout.tsx, `xl`): nothing to ask for there.
  const wide = useMediaQuery('(min-width: 1280px)')
  if (!me || !wide) return null
  return (
    <>
      <WhoToFollow me={me} />
      <TrendingCard />
    </>
  )
}

/** Home's title bar. */
export function HomeHeader() {
  return (
    <PageHeader title="Home">
      <span className="hidden lg:inline-flex">
        <ModeToggle />
      </span>
    </PageHeader>
  )
}

/**
 * Home's tabs and composer around its two feeds. Also drawn, with the first Friends posts
 * left for the server to fill in, in the document's picture of Home (app/prepaint.tsx).
 */
export function HomeTabs({ friends, forYou }: { friends: React.ReactNode; forYou: React.ReactNode }) {
  return (
    <Tabs defaultValue="friends">
      <div className="border-b border-border px-4 py-2">
        <TabsList aria-label="Feeds">
          <TabsTrigger value="friends">Friends</TabsTrigger>
          <TabsTrigger value="for-you">For You</TabsTrigger>
        </TabsList>
      </div>
      <Composer variant="inline" />
      <TabsContent value="friends" className="mt-0">
        {friends}
      </TabsContent>
      <TabsContent value="for-you" className="mt-0">
        {forYou}
      </TabsContent>
    </Tabs>
  )
}

export default function HomeRoute() {
  const { data: user, isPending } = useCurrentUser()
  // Only `/api/auth/me` says whether the first-run step is done.
  const { data: me } = useMe()
  // On wide screens the right column already shows who to follow (HomeAside).
  const wide = useMediaQuery('(min-width: 1280px)')
  return (
    <>
      <HomeHeader />
      {isPending ? null : !user ? (
        <p className="px-4 py-10 text-center text-muted-foreground">Please log in to see your feed.</p>
      ) : me?.firstRunDone === false ? (
        <FirstRunStep me={me} />
      ) : (
        <HomeTabs
          friends={
            <>
              <NewPostsButton />
              <FriendsFeed currentUserId={user.id} />
              {/* Below the feed: it arrives after the feed is drawn, and above it would push the posts down. */}
              <Welcome me={user} withSuggestions={!wide} />
            </>
          }
          forYou={<ForYouFeed currentUserId={user.id} />}
        />
      )}
    </>
  )
}

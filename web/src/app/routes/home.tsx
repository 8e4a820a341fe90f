import type * as React from 'react'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { ModeToggle } from '@/components/theme/mode-toggle'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { NewPostsButton } from '@/features/live'
import { Composer } from '@/features/posts/components/composer'
import { ForYouFeed, FriendsFeed } from '@/features/posts/components/home-feeds'
import { PageHeader } from './page-header'

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
  return (
    <>
      <HomeHeader />
      {isPending ? null : !user ? (
        <p className="px-4 py-10 text-center text-muted-foreground">Please log in to see your feed.</p>
      ) : (
        <HomeTabs
          friends={
            <>
              <NewPostsButton />
              <FriendsFeed currentUserId={user.id} />
            </>
          }
          forYou={<ForYouFeed currentUserId={user.id} />}
        />
      )}
    </>
  )
}

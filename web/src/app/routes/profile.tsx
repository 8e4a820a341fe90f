import * as React from 'react'
import { Link, useParams } from 'wouter'
import { ArrowLeft, CalendarDays, Camera, ImageUp, Link as LinkIcon } from 'lucide-react'
import { LoadError } from '@/components/load-error'
import { Avatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { toast } from '@/components/ui/use-toast'
import { ApiError } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { monthYear, withoutScheme } from '@/lib/utils'
import type { User } from '@/lib/types'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { FollowButton } from '@/features/follows/components/follow-button'
import { useUserLikes } from '@/features/posts/api/get-user-likes'
import { useUserPosts } from '@/features/posts/api/get-user-posts'
import { PostList } from '@/features/posts/components/post-list'
import { ImageUploadButton } from '@/features/uploads/components/image-upload-button'
import { useProfile } from '@/features/users/api/get-profile'
import { useUpdateImage, type ImageKind } from '@/features/users/api/update-image'
import { PageHeader } from './page-header'

const EditProfileDialog = React.lazy(() => import('@/features/users/components/edit-profile-dialog'))

const PROFILE_LIKE_ERROR = 'Failed to like post. Please try again.'

function ImageChangeButton({ kind, children }: { kind: ImageKind; children: (open: () => void) => React.ReactNode }) {
  const update = useUpdateImage()
  return (
    <ImageUploadButton
      maxFiles={1}
      onUploaded={([image]) => {
        if (!image) return
        update.mutate(
          { kind, imageURL: image.uploadUrl },
          {
            onSuccess: () => toast({ title: 'Image updated' }),
            onError: (error) => {
              if (!handleUnauthorized(error))
                toast({ title: 'Error', description: `Failed to update ${kind} image. Please try again.`, variant: 'destructive' })
            },
          },
        )
      }}
    >
      {children}
    </ImageUploadButton>
  )
}

function ProfileHeader({ user, isOwn, canFollow }: { user: User; isOwn: boolean; canFollow: boolean }) {
  const [editing, setEditing] = React.useState(false)
  return (
    <section aria-label="Profile">
      <div className="relative aspect-[3/1] w-full bg-gradient-to-br from-primary/40 to-primary/10">
        {user.headerImageUrl && (
          <img src={user.headerImageUrl} alt="" width={1500} height={500} className="size-full object-cover" />
        )}
        {isOwn && (
          <ImageChangeButton kind="header">
            {(open) => (
              <Button size="sm" variant="secondary" className="absolute right-3 top-3 opacity-90" onClick={open}>
                <ImageUp aria-hidden="true" /> Change header
              </Button>
            )}
          </ImageChangeButton>
        )}
      </div>
      <div className="px-4 pb-4">
        <div className="flex items-end justify-between">
          <div className="relative -mt-12 rounded-full border-4 border-background bg-background sm:-mt-16">
            <Avatar name={user.displayName} src={user.profileImageUrl} size={112} className="size-24 text-4xl sm:size-28" />
            {isOwn && (
              <ImageChangeButton kind="profile">
                {(open) => (
                  <Button
                    size="icon"
                    variant="secondary"
                    className="absolute bottom-0 right-0 size-9 rounded-full"
                    aria-label="Change profile picture"
                    onClick={open}
                  >
                    <Camera aria-hidden="true" />
                  </Button>
                )}
              </ImageChangeButton>
            )}
          </div>
          <div className="mt-3">
            {isOwn ? (
              <Button variant="outline" className="rounded-full" onClick={() => setEditing(true)}>
                Edit Profile
              </Button>
            ) : (
              canFollow && <FollowButton userId={user.id} displayName={user.displayName} size="default" />
            )}
          </div>
        </div>
        <h2 className="mt-3 text-2xl font-bold">{user.displayName}</h2>
        <p className="text-muted-foreground">@{user.username}</p>
        {user.bio && <p className="mt-3 whitespace-pre-wrap break-words">{user.bio}</p>}
        <div className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
          {user.website && (
            <a
              href={user.website}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 text-primary hover:underline"
            >
              <LinkIcon className="size-4" aria-hidden="true" />
              {withoutScheme(user.website)}
            </a>
          )}
          <span className="inline-flex items-center gap-1">
            <CalendarDays className="size-4" aria-hidden="true" />
            Joined {monthYear(user.createdAt)}
          </span>
        </div>
        <p className="mt-3 flex gap-4 text-sm">
          <span>
            <strong className="font-semibold">{user.followingCount}</strong>{' '}
            <span className="text-muted-foreground">Following</span>
          </span>
          <span>
            <strong className="font-semibold">{user.followerCount}</strong>{' '}
            <span className="text-muted-foreground">{user.followerCount === 1 ? 'Follower' : 'Followers'}</span>
          </span>
        </p>
      </div>
      {isOwn && editing && (
        <React.Suspense fallback={null}>
          <EditProfileDialog user={user} open={editing} onOpenChange={setEditing} />
        </React.Suspense>
      )}
    </section>
  )
}

function ProfileTabs({ username, currentUserId }: { username: string; currentUserId?: number }) {
  const [tab, setTab] = React.useState('posts')
  // Each tab is its own list from the server, fetched when first opened.
  const posts = useUserPosts(username, 'posts')
  const replies = useUserPosts(username, 'replies', tab === 'replies')
  const media = useUserPosts(username, 'media', tab === 'media')
  const likes = useUserLikes(username, tab === 'likes')
  return (
    <Tabs value={tab} onValueChange={setTab}>
      <div className="border-b border-border px-4 py-2">
        <TabsList aria-label="Profile sections">
          <TabsTrigger value="posts">Posts</TabsTrigger>
          <TabsTrigger value="replies">Replies</TabsTrigger>
          <TabsTrigger value="media">Media</TabsTrigger>
          <TabsTrigger value="likes">Likes</TabsTrigger>
        </TabsList>
      </div>
      <TabsContent value="posts" className="mt-0">
        <PostList query={posts} currentUserId={currentUserId} empty={<p>No posts yet.</p>} likeErrorDescription={PROFILE_LIKE_ERROR} />
      </TabsContent>
      <TabsContent value="replies" className="mt-0">
        <PostList query={replies} currentUserId={currentUserId} empty={<p>No replies yet.</p>} likeErrorDescription={PROFILE_LIKE_ERROR} />
      </TabsContent>
      <TabsContent value="media" className="mt-0">
        <PostList query={media} currentUserId={currentUserId} empty={<p>No media posts yet.</p>} likeErrorDescription={PROFILE_LIKE_ERROR} />
      </TabsContent>
      <TabsContent value="likes" className="mt-0">
        <PostList query={likes} currentUserId={currentUserId} empty={<p>No liked posts yet.</p>} likeErrorDescription={PROFILE_LIKE_ERROR} />
      </TabsContent>
    </Tabs>
  )
}

export default function ProfileRoute() {
  const params = useParams<{ username: string }>()
  const username = decodeURIComponent(params.username ?? '')
  const { data: me } = useCurrentUser()
  const profile = useProfile(username)

  React.useEffect(() => {
    if (profile.error) handleUnauthorized(profile.error)
  }, [profile.error])

  const back = (
    <Button asChild variant="ghost" size="icon" aria-label="Back to home">
      <Link href="/">
        <ArrowLeft className="size-5" aria-hidden="true" />
      </Link>
    </Button>
  )

  if (profile.isPending) {
    return (
      <>
        <PageHeader title="Profile" before={back} />
        <p role="status" className="px-4 py-10 text-center text-muted-foreground">
          Loading profile...
        </p>
      </>
    )
  }
  if (profile.error || !profile.data) {
    const missing = !profile.error || (profile.error instanceof ApiError && profile.error.status === 404)
    return (
      <>
        <PageHeader title="Profile" before={back} />
        {missing ? (
          <p className="px-4 py-10 text-center text-muted-foreground">User not found.</p>
        ) : (
          <LoadError what="This profile" onRetry={() => void profile.refetch()} retrying={profile.isRefetching} />
        )}
      </>
    )
  }
  const user = profile.data
  const isOwn = me?.username === user.username
  return (
    <>
      <PageHeader title={user.displayName} before={back} />
      <ProfileHeader user={user} isOwn={isOwn} canFollow={Boolean(me) && !isOwn} />
      <ProfileTabs username={user.username} currentUserId={me?.id} />
    </>
  )
}

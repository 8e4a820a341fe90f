import * as React from 'react'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { useUserLikes } from '../api/get-user-likes'
import { useUserPosts } from '../api/get-user-posts'
import { usePinnedPosts } from '../api/get-pinned'
import { PostCard } from './post-card'
import { PostList } from './post-list'

const PROFILE_LIKE_ERROR = 'Failed to like post. Please try again.'

/** A member's posts, replies, media and likes, one tab each. */
export function ProfileTabs({ username, currentUserId }: { username: string; currentUserId?: number }) {
  const [tab, setTab] = React.useState('posts')
  // Each tab is its own list from the server, fetched when first opened.
  const posts = useUserPosts(username, 'posts')
  const replies = useUserPosts(username, 'replies', tab === 'replies')
  const media = useUserPosts(username, 'media', tab === 'media')
  const likes = useUserLikes(username, tab === 'likes')
  const pinned = usePinnedPosts(username)
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
        {/* Pinned posts first, labelled; they are in the list below in their place too. */}
        {(pinned.data ?? []).map((post) => (
          <PostCard key={`pinned-${post.id}`} post={post} currentUserId={currentUserId} likeErrorDescription={PROFILE_LIKE_ERROR} pinnedLabel />
        ))}
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

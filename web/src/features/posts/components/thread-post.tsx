import type { Post } from '@/lib/types'
import { MutedWordFold } from './muted-word-fold'
import { PostCard } from './post-card'

/** A parent or reply in a thread: folded when it holds a word the reader mutes (`MutedWordFold`). */
export function ThreadPost({ post, currentUserId }: { post: Post; currentUserId?: number }) {
  const card = <PostCard post={post} currentUserId={currentUserId} hideReplyContext />
  return post.hiddenByMutedWord === true ? <MutedWordFold>{card}</MutedWordFold> : card
}

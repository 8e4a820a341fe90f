import { useBookmarks } from '../api/get-bookmarks'
import { PostList } from './post-list'

/** The member's bookmarks, newest bookmark first; only they see them. */
export function BookmarkList({ currentUserId }: { currentUserId?: number }) {
  const bookmarks = useBookmarks()
  return (
    <PostList
      query={bookmarks}
      currentUserId={currentUserId}
      empty={<p>No bookmarks yet. Bookmark a post to find it here later.</p>}
    />
  )
}

import { useCurrentUser } from '@/features/auth/api/get-user'
import { BookmarkList } from '@/features/posts'
import { PageHeader } from './page-header'

export default function BookmarksRoute() {
  const { data: me } = useCurrentUser()
  return (
    <>
      <PageHeader title="Bookmarks" />
      <BookmarkList currentUserId={me?.id} />
    </>
  )
}

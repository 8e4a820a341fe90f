import { Button } from '@/components/ui/button'

/** "Show more" under a paged list that has another page; "Loading..." while it comes. */
export function ShowMore({
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
  label = 'Show more',
}: {
  hasNextPage: boolean
  isFetchingNextPage: boolean
  fetchNextPage: () => Promise<unknown>
  label?: string
}) {
  if (!hasNextPage) return null
  return (
    <div className="flex justify-center p-4">
      <Button variant="outline" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
        {isFetchingNextPage ? 'Loading...' : label}
      </Button>
    </div>
  )
}

import * as React from 'react'
import { Link } from 'wouter'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { plural } from '@/lib/utils'
import { useTrending } from '../api/get-trending'

/** Tags shown before "Show more". */
const FIRST_SHOWN = 6

const rowClass = 'block rounded-sm py-2'

/** The tags most members posted with in the last day, each a link to its page. */
export function TrendingCard() {
  const trending = useTrending()
  const [showAll, setShowAll] = React.useState(false)
  const tags = trending.data ?? []
  const listId = React.useId()
  return (
    <Card role="region" aria-labelledby="trending-title">
      <CardHeader>
        <CardTitle id="trending-title">Trending</CardTitle>
      </CardHeader>
      <CardContent>
        {trending.isPending ? (
          // Rows of the same height as the tags', so the cards below do not move when they come.
          <div role="status" aria-label="Loading trending tags" className="divide-y divide-border">
            {Array.from({ length: FIRST_SHOWN }, (_, i) => (
              <div key={i} className={rowClass} aria-hidden="true">
                <div className="my-0.5 h-5 w-28 rounded bg-muted" />
                <div className="my-0.5 h-4 w-24 rounded bg-muted" />
              </div>
            ))}
          </div>
        ) : trending.error ? (
          <LoadError what="Trending tags" onRetry={() => void trending.refetch()} retrying={trending.isRefetching} />
        ) : tags.length === 0 ? (
          <p className="text-muted-foreground">Nothing is trending yet.</p>
        ) : (
          <>
            <ul id={listId} className="divide-y divide-border">
              {(showAll ? tags : tags.slice(0, FIRST_SHOWN)).map((tag) => (
                <li key={tag.name}>
                  <Link href={`/tag/${encodeURIComponent(tag.name)}`} className={`${rowClass} hover:underline`}>
                    <span className="block truncate font-semibold">#{tag.name}</span>{' '}
                    <span className="block text-sm text-muted-foreground">{plural(tag.peopleCount, 'person', 'people')} posting</span>
                  </Link>
                </li>
              ))}
            </ul>
            {tags.length > FIRST_SHOWN && (
              <Button variant="link" className="px-0" type="button" aria-expanded={showAll} aria-controls={listId} onClick={() => setShowAll(!showAll)}>
                {showAll ? 'Show less' : 'Show more'}
              </Button>
            )}
          </>
        )}
      </CardContent>
    </Card>
  )
}

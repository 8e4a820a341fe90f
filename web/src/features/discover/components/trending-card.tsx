import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'

// A fixed showcase (spec: static, six entries, made-up counts).
const TRENDING = [
  { topic: 'WebDev', category: 'Technology', posts: '12.4K posts' },
  { topic: 'UIDesign', category: 'Design', posts: '8.1K posts' },
  { topic: 'BuildInPublic', category: 'Startups', posts: '5.6K posts' },
  { topic: 'AI', category: 'Technology', posts: '31.2K posts' },
  { topic: 'React', category: 'Programming', posts: '9.8K posts' },
  { topic: 'Design', category: 'Creative', posts: '15.3K posts' },
]

export function TrendingCard() {
  return (
    <Card role="region" aria-labelledby="trending-title">
      <CardHeader>
        <CardTitle id="trending-title">Trending</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-border">
          {TRENDING.map((item) => (
            <li key={item.topic} className="py-2">
              <p className="text-xs text-muted-foreground">{item.category} · Trending</p>
              <p className="font-semibold">#{item.topic}</p>
              <p className="text-xs text-muted-foreground">{item.posts}</p>
            </li>
          ))}
        </ul>
        <Button variant="link" className="px-0" type="button">
          Show more
        </Button>
      </CardContent>
    </Card>
  )
}

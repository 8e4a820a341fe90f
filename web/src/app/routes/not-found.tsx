import { Link } from 'wouter'
import { Button } from '@/components/ui/button'

export default function NotFoundRoute() {
  return (
    <div className="flex flex-col items-center gap-4 px-4 py-20 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist.</p>
      <Button asChild>
        <Link href="/">Go home</Link>
      </Button>
    </div>
  )
}

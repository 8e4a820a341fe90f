import { Button } from '@/components/ui/button'

/** A screen or list that could not be loaded (not a 404): what failed, and a way to try again. */
export function LoadError({ what, onRetry, retrying }: { what: string; onRetry: () => void; retrying?: boolean }) {
  return (
    <div role="alert" className="grid justify-items-center gap-3 px-4 py-10 text-center">
      <p className="text-muted-foreground">{what} could not be loaded.</p>
      <Button variant="outline" onClick={onRetry} disabled={retrying}>
        {retrying ? 'Retrying...' : 'Retry'}
      </Button>
    </div>
  )
}

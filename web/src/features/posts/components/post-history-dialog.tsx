import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { dateTime } from '@/lib/utils'
import type { Post } from '@/lib/types'
import { usePostHistory } from '../api/get-post-history'
import { imagesOf } from './post-images'

interface PostHistoryDialogProps {
  post: Post
  open: boolean
  onOpenChange: (open: boolean) => void
}

/** An edited post's earlier versions (text and images), newest first, under how it reads now. */
export function PostHistoryDialog({ post, open, onOpenChange }: PostHistoryDialogProps) {
  const history = usePostHistory(post.id, open)
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[85dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Edit history</DialogTitle>
          <DialogDescription>Earlier versions of this post, newest first.</DialogDescription>
        </DialogHeader>
        <ol className="grid gap-3" aria-label="Versions">
          <li className="rounded-md border border-border p-3">
            <p className="mb-1 text-xs font-medium text-muted-foreground">
              Now{post.editedAt ? ` · edited ${dateTime(post.editedAt)}` : ''}
            </p>
            {post.spoilerText && <p className="mb-1 text-sm font-medium">Content warning: {post.spoilerText}</p>}
            <p className="whitespace-pre-wrap break-words text-sm">{post.content}</p>
            <VersionImages images={imagesOf(post)} />
          </li>
          {history.isPending && (
            <li role="status" className="text-sm text-muted-foreground">
              Loading...
            </li>
          )}
          {history.isError && (
            <li role="alert" className="text-sm text-muted-foreground">
              The earlier versions could not be loaded.
            </li>
          )}
          {history.data?.map((version, index) => (
            <li key={`${version.replacedAt}-${index}`} className="rounded-md border border-border p-3">
              <p className="mb-1 text-xs font-medium text-muted-foreground">Written {dateTime(version.writtenAt)}</p>
              {version.spoilerText && (
                <p className="mb-1 text-sm font-medium">Content warning: {version.spoilerText}</p>
              )}
              <p className="whitespace-pre-wrap break-words text-sm">{version.content}</p>
              <VersionImages images={version.images} />
            </li>
          ))}
        </ol>
      </DialogContent>
    </Dialog>
  )
}

/** A version's images, small, each named by its description then. */
function VersionImages({ images }: { images: { url: string; alt?: string | null }[] }) {
  if (images.length === 0) return null
  return (
    <ul className="mt-2 flex flex-wrap gap-2" aria-label="Images of this version">
      {images.map((image, position) => (
        <li key={`${image.url}-${position}`}>
          <img
            src={image.url}
            alt={image.alt ?? `Image ${position + 1} of this version, not described`}
            title={image.alt ?? undefined}
            className="size-16 rounded-md object-cover"
          />
        </li>
      ))}
    </ul>
  )
}

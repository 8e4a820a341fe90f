import * as React from 'react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { toast } from '@/components/ui/use-toast'
import { messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { cn } from '@/lib/utils'
import { CONTENT_WARNING_MAX_LENGTH, IMAGE_DESCRIPTION_MAX_LENGTH, POST_MAX_LENGTH, type Post } from '@/lib/types'
import { useEditPost } from '../api/edit-post'
import { descriptionLength, isPostTooLong, postLength, warningLength } from '../lib/post-rules'
import { imagesOf } from './post-images'

interface EditPostDialogProps {
  post: Post
  open: boolean
  onOpenChange: (open: boolean) => void
}

/**
 * The author's edit of a post's text, content warning and image descriptions (and, without a poll, which of its
 * images stay); closes on a successful save.
 */
export function EditPostDialog({ post, open, onOpenChange }: EditPostDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit post</DialogTitle>
          <DialogDescription>Posts can be edited for an hour after posting. Earlier versions stay visible.</DialogDescription>
        </DialogHeader>
        {/* Mounted on each opening, so it starts from the post as it reads now. */}
        {open && <EditForm post={post} onClose={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  )
}

function EditForm({ post, onClose }: { post: Post; onClose: () => void }) {
  const [content, setContent] = React.useState(post.content)
  const [warning, setWarning] = React.useState(post.spoilerText ?? '')
  const [kept, setKept] = React.useState<string[]>(post.imageUrls)
  const images = imagesOf(post)
  const [alts, setAlts] = React.useState<Record<string, string>>(() =>
    Object.fromEntries(images.map((image) => [image.url, image.alt ?? ''])),
  )
  const edit = useEditPost()
  const length = postLength(content)
  const tooLong = isPostTooLong(content)
  const warningCount = warningLength(warning)
  const warningTooLong = warningCount > CONTENT_WARNING_MAX_LENGTH
  const canRemoveImages = post.pollOptions.length === 0 && post.imageUrls.length > 0
  const altTooLong = kept.some((url) => descriptionLength(alts[url] ?? '') > IMAGE_DESCRIPTION_MAX_LENGTH)
  // A post with an image may have no text.
  const empty = length === 0 && kept.length === 0
  const cannotSave = empty || tooLong || warningTooLong || altTooLong

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    if (cannotSave) return
    const imagesChanged = kept.length !== post.imageUrls.length
    const altsChanged = images.some((image) => kept.includes(image.url) && (alts[image.url] ?? '').trim() !== (image.alt ?? ''))
    const warningChanged = (warning.trim() || null) !== (post.spoilerText ?? null)
    edit.mutate(
      {
        postId: post.id,
        content: content.trim(),
        // Sent only when changed: left out, the post keeps its warning.
        ...(warningChanged ? { spoilerText: warning.trim() || null } : {}),
        // Sent only when changed: left out, the post keeps its images and their descriptions.
        images: imagesChanged || altsChanged ? kept.map((url) => ({ url, alt: (alts[url] ?? '').trim() || null })) : undefined,
      },
      {
        onSuccess: () => {
          toast({ title: 'Post edited' })
          onClose()
        },
        onError: (error) => {
          if (!handleUnauthorized(error))
            toast({ title: 'Error', description: messageOf(error, 'Failed to edit post. Please try again.'), variant: 'destructive' })
        },
      },
    )
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4">
      <Field
        id={`edit-post-${post.id}-warning`}
        label="Content warning"
        hint={`Optional: shown in place of the post until opened. ${warningCount}/${CONTENT_WARNING_MAX_LENGTH}`}
        hintClassName={cn(warningTooLong && 'font-semibold text-destructive')}
        error={warningTooLong ? `A content warning can be at most ${CONTENT_WARNING_MAX_LENGTH} characters long` : undefined}
      >
        <Input value={warning} onChange={(e) => setWarning(e.target.value)} />
      </Field>
      <Field
        id={`edit-post-${post.id}`}
        label="Text"
        hint={`${length}/${POST_MAX_LENGTH}`}
        hintClassName={cn('text-right', tooLong && 'font-semibold text-destructive')}
        error={tooLong ? `A post can be at most ${POST_MAX_LENGTH} characters long` : undefined}
      >
        <Textarea rows={4} value={content} onChange={(e) => setContent(e.target.value)} required={kept.length === 0} />
      </Field>
      {images.length > 0 && (
        <fieldset className="grid gap-3">
          <legend className="mb-2 text-sm font-medium">Images</legend>
          {images.map((image, index) => {
            const keeping = kept.includes(image.url)
            const alt = alts[image.url] ?? ''
            const altLength = descriptionLength(alt)
            return (
              <div key={image.url} className="flex items-start gap-3">
                <img src={image.url} alt="" className={cn('size-16 shrink-0 rounded-md object-cover', !keeping && 'opacity-40')} />
                <div className="grid min-w-0 flex-1 gap-1.5">
                  <Field
                    id={`edit-post-${post.id}-alt-${index}`}
                    label={`Description of image ${index + 1}`}
                    hint={`What it shows, for those who cannot see it. ${altLength}/${IMAGE_DESCRIPTION_MAX_LENGTH}`}
                    hintClassName={cn(altLength > IMAGE_DESCRIPTION_MAX_LENGTH && 'font-semibold text-destructive')}
                    error={
                      altLength > IMAGE_DESCRIPTION_MAX_LENGTH
                        ? `A description can be at most ${IMAGE_DESCRIPTION_MAX_LENGTH} characters long`
                        : undefined
                    }
                  >
                    <Textarea
                      rows={2}
                      value={alt}
                      disabled={!keeping}
                      onChange={(e) => setAlts({ ...alts, [image.url]: e.target.value })}
                    />
                  </Field>
                  {canRemoveImages && (
                    <label className="flex items-center gap-1.5 text-sm">
                      <input
                        type="checkbox"
                        className="size-4"
                        aria-label={`Keep image ${index + 1}`}
                        checked={keeping}
                        onChange={() =>
                          setKept(keeping ? kept.filter((u) => u !== image.url) : post.imageUrls.filter((u) => u === image.url || kept.includes(u)))
                        }
                      />
                      Keep
                    </label>
                  )}
                </div>
              </div>
            )
          })}
        </fieldset>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={cannotSave || edit.isPending}>
          {edit.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  )
}

import * as React from 'react'
import { BarChart3, ImagePlus, Plus, X } from 'lucide-react'
import { Avatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { toast } from '@/components/ui/use-toast'
import { handleUnauthorized } from '@/lib/unauthorized'
import { cn, codePointLength } from '@/lib/utils'
import { MAX_IMAGES, MAX_POLL_OPTIONS, POST_MAX_LENGTH } from '@/lib/types'
import { ImageUploadButton } from '@/features/uploads/components/image-upload-button'
import { useCurrentUser } from '@/features/auth/api/get-user'
import { useCreatePost } from '../api/create-post'

interface ComposerProps {
  /** Inline on Home (2 rows) or in the Create Post dialog (6 rows). */
  variant?: 'inline' | 'dialog'
  replyToId?: number | null
  onPosted?: () => void
  autoFocus?: boolean
}

export function Composer({ variant = 'inline', replyToId = null, onPosted, autoFocus }: ComposerProps) {
  const id = React.useId()
  const { data: user } = useCurrentUser()
  const [content, setContent] = React.useState('')
  const [imageUrls, setImageUrls] = React.useState<string[]>([])
  const [pollOptions, setPollOptions] = React.useState<string[]>([])
  const [showPoll, setShowPoll] = React.useState(false)
  const createPost = useCreatePost()

  const length = codePointLength(content)
  const tooLong = length > POST_MAX_LENGTH
  const empty = content.trim().length === 0
  const canPost = !empty && !tooLong && !createPost.isPending
  const imagesLeft = MAX_IMAGES - imageUrls.length

  function togglePoll() {
    if (showPoll) {
      setShowPoll(false)
      setPollOptions([])
    } else {
      setShowPoll(true)
      setPollOptions(['', ''])
    }
  }

  function removeOption(index: number) {
    const next = pollOptions.filter((_, i) => i !== index)
    if (next.length <= 1) {
      setShowPoll(false)
      setPollOptions([])
    } else {
      setPollOptions(next)
    }
  }

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    if (!canPost) return
    const options = showPoll ? pollOptions.map((o) => o.trim()).filter((o) => o.length > 0) : []
    createPost.mutate(
      {
        content: content.trim(),
        ...(imageUrls.length > 0 ? { imageUrls } : {}),
        ...(options.length > 0 ? { pollOptions: options } : {}),
        replyToId,
      },
      {
        onSuccess: () => {
          setContent('')
          setImageUrls([])
          setPollOptions([])
          setShowPoll(false)
          toast({ title: 'Post created', description: 'Your post has been shared successfully.' })
          onPosted?.()
        },
        onError: (error) => {
          if (!handleUnauthorized(error))
            toast({ title: 'Error', description: 'Failed to create post. Please try again.', variant: 'destructive' })
        },
      },
    )
  }

  const label = replyToId !== null ? 'Post your reply' : "What's happening?"

  return (
    <form onSubmit={handleSubmit} className={cn('flex gap-3', variant === 'inline' && 'border-b border-border px-4 py-3')}>
      {user && (
        <Avatar name={user.displayName} src={user.profileImageUrl} size={40} className="hidden sm:inline-flex" />
      )}
      <div className="grid min-w-0 flex-1 gap-3">
        <label htmlFor={`${id}-content`} className="sr-only">
          {label}
        </label>
        <Textarea
          id={`${id}-content`}
          rows={variant === 'dialog' ? 6 : 2}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          placeholder={label}
          aria-describedby={`${id}-counter`}
          aria-invalid={tooLong || undefined}
          autoFocus={autoFocus}
          className="border-0 px-0 text-lg shadow-none focus-visible:ring-0 focus-visible:ring-offset-0"
        />

        {imageUrls.length > 0 && (
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Attached images">
            {imageUrls.map((url, index) => (
              <li key={url} className="relative">
                <img
                  src={url}
                  alt={`Attached image ${index + 1}`}
                  width={120}
                  height={120}
                  className="aspect-square w-full rounded-md bg-muted object-cover"
                />
                <button
                  type="button"
                  aria-label={`Remove image ${index + 1}`}
                  onClick={() => setImageUrls(imageUrls.filter((u) => u !== url))}
                  className="absolute right-1 top-1 rounded-full bg-black/70 p-1 text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <X className="size-3.5" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        )}

        {showPoll && (
          <fieldset className="grid gap-2 rounded-md border border-border p-3">
            <legend className="px-1 text-sm font-medium">Poll</legend>
            {pollOptions.map((option, index) => (
              <div key={index} className="flex items-center gap-2">
                <Input
                  value={option}
                  onChange={(e) => setPollOptions(pollOptions.map((o, i) => (i === index ? e.target.value : o)))}
                  placeholder={`Option ${index + 1}`}
                  aria-label={`Option ${index + 1}`}
                  maxLength={80}
                />
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove option ${index + 1}`}
                  onClick={() => removeOption(index)}
                >
                  <X aria-hidden="true" />
                </Button>
              </div>
            ))}
            {pollOptions.length < MAX_POLL_OPTIONS && (
              <Button type="button" variant="outline" size="sm" onClick={() => setPollOptions([...pollOptions, ''])}>
                <Plus aria-hidden="true" /> Add option
              </Button>
            )}
          </fieldset>
        )}

        <div className="flex items-center justify-between gap-2">
          <div className="flex items-center gap-1">
            <ImageUploadButton maxFiles={imagesLeft} onUploaded={(urls) => setImageUrls((current) => [...current, ...urls].slice(0, MAX_IMAGES))}>
              {(open) => (
                <Button type="button" variant="ghost" size="icon" aria-label="Add images" disabled={imagesLeft <= 0} onClick={open}>
                  <ImagePlus className="size-5 text-primary" aria-hidden="true" />
                </Button>
              )}
            </ImageUploadButton>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={showPoll ? 'Remove poll' : 'Add poll'}
              aria-pressed={showPoll}
              onClick={togglePoll}
            >
              <BarChart3 className="size-5 text-primary" aria-hidden="true" />
            </Button>
          </div>
          <div className="flex items-center gap-3">
            <span
              id={`${id}-counter`}
              className={cn('text-sm tabular-nums', tooLong ? 'font-semibold text-destructive' : 'text-muted-foreground')}
              data-testid="char-counter"
            >
              {length}/{POST_MAX_LENGTH}
            </span>
            <Button type="submit" disabled={!canPost} className="rounded-full px-5">
              {createPost.isPending ? 'Posting...' : replyToId !== null ? 'Reply' : 'Post'}
            </Button>
          </div>
        </div>
      </div>
    </form>
  )
}

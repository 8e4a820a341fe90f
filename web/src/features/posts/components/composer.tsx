import * as React from 'react'
import { BarChart3, Check, ImagePlus, Plus, X } from 'lucide-react'
import { Avatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { Field } from '@/components/ui/field'
import { FieldError } from '@/components/ui/field-error'
import { toast } from '@/components/ui/use-toast'
import { messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { cn } from '@/lib/utils'
import { MAX_IMAGES, MAX_POLL_OPTIONS, POLL_DURATIONS, POST_MAX_LENGTH } from '@/lib/types'
import { ImageUploadButton, type UploadedImage } from '@/features/uploads'
import { useCurrentUser } from '@/features/auth'
import { useCreatePost } from '../api/create-post'
import { hasPollProblems, pollProblems, postLength } from '../lib/post-rules'
import { useDescriptionReminder } from '../lib/description-reminder'
import { DescriptionReminderDialog } from './description-reminder-dialog'
import { ImageDescriptionDialog } from './image-description-dialog'

/** An attached image: sent by its upload URL, shown from the picked file (the upload URL only takes PUT). */
interface Attached {
  uploadUrl: string
  previewUrl: string
  /** Its alt text as written in "Add description"; empty when none. */
  description: string
}

const DEFAULT_POLL_HOURS = 24

/** The attached images, with their object URLs let go when an image is removed or the composer goes. */
function useAttachedImages() {
  const [images, setImages] = React.useState<Attached[]>([])
  const current = React.useRef(images)
  React.useEffect(() => {
    current.current = images
  }, [images])
  React.useEffect(() => () => current.current.forEach((image) => URL.revokeObjectURL(image.previewUrl)), [])
  // Object URLs are made and let go here, outside the state updates (which React may run twice).
  return {
    images,
    add: (uploaded: UploadedImage[]) => {
      const added = uploaded
        .slice(0, MAX_IMAGES - current.current.length)
        .map((image) => ({ uploadUrl: image.uploadUrl, previewUrl: URL.createObjectURL(image.file), description: '' }))
      setImages((now) => [...now, ...added])
    },
    remove: (uploadUrl: string) => {
      current.current.filter((image) => image.uploadUrl === uploadUrl).forEach((image) => URL.revokeObjectURL(image.previewUrl))
      setImages((now) => now.filter((image) => image.uploadUrl !== uploadUrl))
    },
    describe: (uploadUrl: string, description: string) => {
      setImages((now) => now.map((image) => (image.uploadUrl === uploadUrl ? { ...image, description } : image)))
    },
    clear: () => {
      current.current.forEach((image) => URL.revokeObjectURL(image.previewUrl))
      setImages([])
    },
  }
}

interface ComposerProps {
  /** Inline on Home (2 rows) or in the Create Post dialog (6 rows). */
  variant?: 'inline' | 'dialog'
  replyToId?: number | null
  onPosted?: () => void
}

export function Composer({ variant = 'inline', replyToId = null, onPosted }: ComposerProps) {
  const id = React.useId()
  const { data: user } = useCurrentUser()
  const [content, setContent] = React.useState('')
  const attached = useAttachedImages()
  const [pollOptions, setPollOptions] = React.useState<string[]>([])
  const [showPoll, setShowPoll] = React.useState(false)
  const [pollHours, setPollHours] = React.useState(DEFAULT_POLL_HOURS)
  const createPost = useCreatePost()
  const [remind] = useDescriptionReminder()
  // The upload URL of the image whose description is being written.
  const [describing, setDescribing] = React.useState<string | null>(null)
  const [reminderOpen, setReminderOpen] = React.useState(false)
  // The reminder asks once per post: "Post anyway" is an answer, not to be asked again.
  const reminded = React.useRef(false)

  // Counted as the server counts: the trimmed text, in code points.
  const length = postLength(content)
  const tooLong = length > POST_MAX_LENGTH
  const empty = length === 0
  const poll = pollProblems(showPoll ? pollOptions : [])
  const pollInvalid = hasPollProblems(poll)
  const canPost = !empty && !tooLong && !pollInvalid && !createPost.isPending
  const imagesLeft = MAX_IMAGES - attached.images.length

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

  const undescribed = attached.images.filter((image) => image.description.trim() === '')

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    if (!canPost) return
    if (remind && undescribed.length > 0 && !reminded.current) {
      reminded.current = true
      setReminderOpen(true)
      return
    }
    send()
  }

  function send() {
    const options = showPoll ? pollOptions.map((o) => o.trim()).filter((o) => o.length > 0) : []
    // The spec's `imageUrls` when nothing is described; `images` carries the descriptions.
    const described = attached.images.some((image) => image.description.trim() !== '')
    const images = described
      ? { images: attached.images.map((image) => ({ url: image.uploadUrl, alt: image.description.trim() || null })) }
      : attached.images.length > 0
        ? { imageUrls: attached.images.map((image) => image.uploadUrl) }
        : {}
    createPost.mutate(
      {
        content: content.trim(),
        ...images,
        ...(options.length > 0 ? { pollOptions: options, pollDurationHours: pollHours } : {}),
        replyToId,
      },
      {
        onSuccess: () => {
          setContent('')
          attached.clear()
          setPollOptions([])
          setShowPoll(false)
          setPollHours(DEFAULT_POLL_HOURS)
          reminded.current = false
          toast({ title: 'Post created', description: 'Your post has been shared successfully.' })
          onPosted?.()
        },
        onError: (error) => {
          if (!handleUnauthorized(error))
            toast({
              title: 'Error',
              description: messageOf(error, 'Failed to create post. Please try again.'),
              variant: 'destructive',
            })
        },
      },
    )
  }

  const label = replyToId !== null ? 'Post your reply' : "What's happening?"
  const describingIndex = attached.images.findIndex((image) => image.uploadUrl === describing)
  const describingImage = describingIndex >= 0 ? attached.images[describingIndex] : undefined

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
          className="border-0 px-0 text-lg shadow-none focus-visible:ring-0 focus-visible:ring-offset-0"
        />

        {attached.images.length > 0 && (
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Attached images">
            {attached.images.map((image, index) => (
              <li key={image.uploadUrl} className="relative">
                {/* eslint-disable-next-line jsx-a11y/img-redundant-alt -- it names the attachment by position, as the remove button does */}
                <img
                  src={image.previewUrl}
                  alt={`Attached image ${index + 1}`}
                  width={120}
                  height={120}
                  className="aspect-square w-full rounded-md bg-muted object-cover"
                />
                <button
                  type="button"
                  aria-label={`Remove image ${index + 1}`}
                  onClick={() => attached.remove(image.uploadUrl)}
                  className="absolute right-1 top-1 rounded-full bg-black/70 p-1 text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <X className="size-3.5" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  aria-label={`${image.description ? 'Edit' : 'Add'} description of image ${index + 1}`}
                  onClick={() => setDescribing(image.uploadUrl)}
                  className="absolute bottom-1 left-1 inline-flex min-h-6 items-center gap-1 rounded-md bg-black/70 px-1.5 text-xs font-medium text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {image.description ? (
                    <>
                      <Check className="size-3" aria-hidden="true" /> Edit description
                    </>
                  ) : (
                    'Add description'
                  )}
                </button>
              </li>
            ))}
          </ul>
        )}

        {showPoll && (
          <fieldset
            className="grid gap-2 rounded-md border border-border p-3"
            aria-describedby={poll.poll ? `${id}-poll-error` : undefined}
          >
            <legend className="px-1 text-sm font-medium">Poll</legend>
            {pollOptions.map((option, index) => (
              <Field
                key={index}
                id={`${id}-option-${index}`}
                label={`Option ${index + 1}`}
                labelClassName="sr-only"
                error={poll.options[index]}
                className="gap-1"
              >
                {(control) => (
                  <div className="flex items-center gap-2">
                    <Input
                      {...control}
                      value={option}
                      onChange={(e) => setPollOptions(pollOptions.map((o, i) => (i === index ? e.target.value : o)))}
                      placeholder={`Option ${index + 1}`}
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
                )}
              </Field>
            ))}
            <FieldError id={`${id}-poll-error`}>{poll.poll}</FieldError>
            {pollOptions.length < MAX_POLL_OPTIONS && (
              <Button type="button" variant="outline" size="sm" onClick={() => setPollOptions([...pollOptions, ''])}>
                <Plus aria-hidden="true" /> Add option
              </Button>
            )}
            <div className="flex items-center gap-2 text-sm">
              <label htmlFor={`${id}-poll-length`} className="font-medium">
                Poll length
              </label>
              <select
                id={`${id}-poll-length`}
                value={pollHours}
                onChange={(e) => setPollHours(Number(e.target.value))}
                className="h-9 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                {POLL_DURATIONS.map((duration) => (
                  <option key={duration.hours} value={duration.hours}>
                    {duration.label}
                  </option>
                ))}
              </select>
            </div>
          </fieldset>
        )}

        <div className="flex items-center justify-between gap-2">
          <div className="flex items-center gap-1">
            <ImageUploadButton maxFiles={imagesLeft} onUploaded={attached.add}>
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
      {describingImage && (
        <ImageDescriptionDialog
          key={describingImage.uploadUrl}
          open
          onOpenChange={(open) => !open && setDescribing(null)}
          position={describingIndex + 1}
          previewUrl={describingImage.previewUrl}
          description={describingImage.description}
          onSave={(description) => attached.describe(describingImage.uploadUrl, description)}
        />
      )}
      <DescriptionReminderDialog
        open={reminderOpen}
        onOpenChange={setReminderOpen}
        missing={undescribed.length}
        onDescribe={() => {
          setReminderOpen(false)
          setDescribing(undescribed[0]?.uploadUrl ?? null)
        }}
        onPostAnyway={() => {
          setReminderOpen(false)
          send()
        }}
      />
    </form>
  )
}

import * as React from 'react'
import { BarChart3, Check, ImageIcon, ImagePlus, Plus, TriangleAlert, X } from 'lucide-react'
import { Avatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { Field } from '@/components/ui/field'
import { FieldError } from '@/components/ui/field-error'
import { toast } from '@/components/ui/use-toast'
import { ApiError, messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { cn } from '@/lib/utils'
import { CONTENT_WARNING_MAX_LENGTH, MAX_IMAGES, MAX_POLL_OPTIONS, POLL_DURATIONS, POST_MAX_LENGTH, type Post } from '@/lib/types'
import { ImageUploadButton, type UploadedImage } from '@/features/uploads'
import { useCurrentUser } from '@/features/auth'
import { newIdempotencyKey, useCreatePost } from '../api/create-post'
import { hasPollProblems, pollProblems, postLength, warningLength } from '../lib/post-rules'
import { useDescriptionReminder } from '../lib/description-reminder'
import { clearDraft, draftKey, hasContent, loadDraft, pruneDrafts, saveDraft, type Draft, type DraftContext, type DraftImage } from '../lib/drafts'
import { thumbnailOf } from '../lib/thumbnail'
import { DescriptionReminderDialog } from './description-reminder-dialog'
import { ImageDescriptionDialog } from './image-description-dialog'
import { QuotedPost } from './quoted-post'

/**
 * An attached image: sent by its upload URL, shown from the picked file (the upload URL only
 * takes PUT): an object URL at first, then a small `data:` thumbnail that the draft can keep.
 */
type Attached = DraftImage

const DEFAULT_POLL_MINUTES = 1440

function revoke(previewUrl: string | null) {
  if (previewUrl?.startsWith('blob:')) URL.revokeObjectURL(previewUrl)
}

/** The attached images, with their object URLs let go when an image is removed or the composer goes. */
function useAttachedImages(initial: Attached[]) {
  const [images, setImages] = React.useState<Attached[]>(initial)
  const current = React.useRef(images)
  React.useEffect(() => {
    current.current = images
  }, [images])
  React.useEffect(() => () => current.current.forEach((image) => revoke(image.previewUrl)), [])
  // Object URLs are made and let go here, outside the state updates (which React may run twice).
  return {
    images,
    add: (uploaded: UploadedImage[]) => {
      const added = uploaded.slice(0, MAX_IMAGES - current.current.length).map((image) => ({
        uploadUrl: image.uploadUrl,
        previewUrl: URL.createObjectURL(image.file),
        description: '',
        file: image.file,
      }))
      setImages((now) => [
        ...now,
        ...added.map((image) => ({ uploadUrl: image.uploadUrl, previewUrl: image.previewUrl, description: image.description })),
      ])
      // The thumbnail replaces the object URL once drawn, so a draft keeps a picture of it.
      for (const { uploadUrl, previewUrl, file } of added) {
        void thumbnailOf(file).then((thumbnail) => {
          if (!thumbnail || !current.current.some((image) => image.uploadUrl === uploadUrl)) return
          setImages((now) => now.map((image) => (image.uploadUrl === uploadUrl ? { ...image, previewUrl: thumbnail } : image)))
          revoke(previewUrl)
        })
      }
    },
    remove: (uploadUrl: string) => {
      current.current.filter((image) => image.uploadUrl === uploadUrl).forEach((image) => revoke(image.previewUrl))
      setImages((now) => now.filter((image) => image.uploadUrl !== uploadUrl))
    },
    describe: (uploadUrl: string, description: string) => {
      setImages((now) => now.map((image) => (image.uploadUrl === uploadUrl ? { ...image, description } : image)))
    },
    clear: () => {
      current.current.forEach((image) => revoke(image.previewUrl))
      setImages([])
    },
  }
}

/** Image files among those dropped or pasted. */
function imageFiles(list: FileList | null | undefined): File[] {
  return [...(list ?? [])].filter((file) => file.type.startsWith('image/'))
}

/** The server's refusal of an upload it no longer knows (a draft's images outlive uploads never posted). */
function isLostUpload(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && /upload/i.test(error.serverMessage ?? '')
}

/** What a dialog needs from the composer in it to ask before closing. */
export interface ComposerHandle {
  /** Whether anything is written, attached or in a poll. */
  hasContent: () => boolean
  /** Empties the composer and forgets its draft. */
  discard: () => void
  /** Puts focus in the text. */
  focus: () => void
}

interface ComposerProps {
  /** Inline on Home (2 rows) or in the Create Post dialog (6 rows). */
  variant?: 'inline' | 'dialog'
  replyToId?: number | null
  /** The content warning of the post replied to: the reply starts with it (the member may change or remove it). */
  replyToWarning?: string | null
  /** The post this one quotes, shown under the text; the member may take it out before posting. */
  quoteOf?: Post | null
  onPosted?: () => void
  ref?: React.Ref<ComposerHandle>
}

/** The draft context of a composer: a reply's post, else where it is drawn. */
function contextOf(variant: 'inline' | 'dialog', replyToId: number | null): DraftContext {
  if (replyToId !== null) return { kind: 'reply', postId: replyToId }
  return variant === 'dialog' ? { kind: 'dialog' } : { kind: 'home' }
}

export function Composer({
  variant = 'inline',
  replyToId = null,
  replyToWarning = null,
  quoteOf = null,
  onPosted,
  ref,
}: ComposerProps) {
  const id = React.useId()
  const { data: user } = useCurrentUser()
  // Drafts are the member's: none is read or kept until the member is known.
  const key = user ? draftKey(user.id, contextOf(variant, replyToId)) : null
  const [draft] = React.useState<Draft | null>(() => (key ? loadDraft(key) : null))
  const [content, setContent] = React.useState(draft?.content ?? '')
  const attached = useAttachedImages(draft?.images ?? [])
  const [pollOptions, setPollOptions] = React.useState<string[]>(draft?.pollOptions ?? [])
  const [showPoll, setShowPoll] = React.useState(draft?.pollOptions != null)
  const [pollMinutes, setPollMinutes] = React.useState(
    draft?.pollMinutes ?? (draft?.pollHours !== undefined ? draft.pollHours * 60 : DEFAULT_POLL_MINUTES),
  )
  const [pollMultiple, setPollMultiple] = React.useState(draft?.pollMultiple ?? false)
  // The content warning while its field is open (null: closed); a reply starts with its parent's.
  const [warning, setWarning] = React.useState<string | null>(draft ? (draft.contentWarning ?? null) : replyToWarning)
  const warningField = React.useRef<HTMLInputElement>(null)
  // Set when the server no longer knew a draft's images: they were taken out, the text kept.
  const [imagesLost, setImagesLost] = React.useState(false)
  const textarea = React.useRef<HTMLTextAreaElement>(null)
  const [quote, setQuote] = React.useState<Post | null>(quoteOf)
  const createPost = useCreatePost()
  const [remind] = useDescriptionReminder()
  // The upload URL of the image whose description is being written.
  const [describing, setDescribing] = React.useState<string | null>(null)
  const [reminderOpen, setReminderOpen] = React.useState(false)
  // The reminder asks once per post: "Post anyway" is an answer, not to be asked again.
  const reminded = React.useRef(false)
  // One Idempotency-Key per post: sending it again after a failure (the answer lost on the way)
  // answers the post already made instead of making a second one. The server binds a key to the
  // request it first came with, so a post changed after a failure is sent with a new key.
  const postKey = React.useRef<{ key: string; request: string } | null>(null)

  // Counted as the server counts: the trimmed text, in code points.
  const length = postLength(content)
  const tooLong = length > POST_MAX_LENGTH
  // An image-only post is a post (the server's rule too); text is needed only without images.
  const empty = length === 0 && attached.images.length === 0
  const poll = pollProblems(showPoll ? pollOptions : [])
  const pollInvalid = hasPollProblems(poll)
  const warningCount = warning === null ? 0 : warningLength(warning)
  const warningTooLong = warningCount > CONTENT_WARNING_MAX_LENGTH
  const canPost = !empty && !tooLong && !pollInvalid && !warningTooLong && !createPost.isPending
  const imagesLeft = MAX_IMAGES - attached.images.length
  const current = { content, images: attached.images, pollOptions: showPoll ? pollOptions : null }

  React.useEffect(() => pruneDrafts(), [])

  React.useEffect(() => {
    if (key)
      saveDraft(key, {
        content,
        images: attached.images,
        pollOptions: showPoll ? pollOptions : null,
        pollMinutes,
        pollMultiple,
        contentWarning: warning,
      })
  }, [key, content, attached.images, showPoll, pollOptions, pollMinutes, pollMultiple, warning])

  function reset() {
    setContent('')
    attached.clear()
    setPollOptions([])
    setShowPoll(false)
    setPollMinutes(DEFAULT_POLL_MINUTES)
    setPollMultiple(false)
    setWarning(replyToId !== null ? replyToWarning : null)
    setImagesLost(false)
    reminded.current = false
    postKey.current = null
    if (key) clearDraft(key)
  }

  React.useImperativeHandle(ref, () => ({
    hasContent: () => hasContent(current),
    discard: reset,
    focus: () => textarea.current?.focus(),
  }))

  function togglePoll() {
    if (showPoll) {
      setShowPoll(false)
      setPollOptions([])
    } else {
      setShowPoll(true)
      setPollOptions(['', ''])
    }
  }

  function toggleWarning() {
    if (warning === null) {
      setWarning('')
      // The field is drawn on the next render: focus it then.
      requestAnimationFrame(() => warningField.current?.focus())
    } else {
      setWarning(null)
      textarea.current?.focus()
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
    const request = {
      content: content.trim(),
      ...(warning?.trim() ? { spoilerText: warning.trim() } : {}),
      ...images,
      ...(options.length > 0
        ? { pollOptions: options, pollDurationMinutes: pollMinutes, ...(pollMultiple ? { pollMultiple: true } : {}) }
        : {}),
      replyToId,
      ...(quote ? { quoteOfId: quote.id } : {}),
    }
    const sent = JSON.stringify(request)
    if (postKey.current?.request !== sent) postKey.current = { key: newIdempotencyKey(), request: sent }
    createPost.mutate(
      { idempotencyKey: postKey.current.key, ...request },
      {
        onSuccess: () => {
          reset()
          toast({ title: 'Post created', description: 'Your post has been shared successfully.' })
          // Back where the member was: Home's composer, ready for the next post (a dialog gives focus back as it closes).
          if (variant === 'inline') textarea.current?.focus()
          onPosted?.()
        },
        onError: (error) => {
          if (attached.images.length > 0 && isLostUpload(error)) {
            attached.clear()
            setImagesLost(true)
            textarea.current?.focus()
            return
          }
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

  /** Ctrl+Enter (Cmd+Enter on a Mac) posts from anywhere in the composer. */
  function handleKeyDown(event: React.KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return
    event.preventDefault()
    event.currentTarget.requestSubmit()
  }

  const label = replyToId !== null ? 'Post your reply' : "What's happening?"
  const describingIndex = attached.images.findIndex((image) => image.uploadUrl === describing)
  const describingImage = describingIndex >= 0 ? attached.images[describingIndex] : undefined

  return (
    <ImageUploadButton
      maxFiles={imagesLeft}
      onUploaded={(images) => {
        setImagesLost(false)
        attached.add(images)
      }}
    >
      {(pickImages, addImages) => {
        // Dropped or pasted images go to the same uploader as picked ones, while there is room.
        const take = (files: File[]) => {
          if (files.length === 0 || imagesLeft <= 0) return false
          addImages(files.slice(0, imagesLeft))
          return true
        }
        return (
          // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Ctrl+Enter is a shortcut for the Post button inside
          <form
            onSubmit={handleSubmit}
            onKeyDown={handleKeyDown}
            onDragOver={(event) => {
              if (event.dataTransfer.types.includes('Files')) event.preventDefault()
            }}
            onDrop={(event) => {
              if (take(imageFiles(event.dataTransfer.files))) event.preventDefault()
            }}
            className={cn('flex gap-3', variant === 'inline' && 'border-b border-border px-4 py-3')}
          >
            {user && (
              <Avatar name={user.displayName} src={user.profileImageUrl} size={40} className="hidden sm:inline-flex" />
            )}
            <div className="grid min-w-0 flex-1 gap-3">
              {warning !== null && (
                <Field
                  id={`${id}-warning`}
                  label="Content warning"
                  labelClassName="sr-only"
                  hint={`${warningCount}/${CONTENT_WARNING_MAX_LENGTH}`}
                  hintClassName={cn('text-right tabular-nums', warningTooLong && 'font-semibold text-destructive')}
                  error={
                    warningTooLong ? `A content warning can be at most ${CONTENT_WARNING_MAX_LENGTH} characters long` : undefined
                  }
                  className="gap-1"
                >
                  {(control) => (
                    <Input
                      {...control}
                      ref={warningField}
                      value={warning}
                      onChange={(e) => setWarning(e.target.value)}
                      placeholder="Content warning: what is this post about?"
                    />
                  )}
                </Field>
              )}
              <label htmlFor={`${id}-content`} className="sr-only">
                {label}
              </label>
              <Textarea
                ref={textarea}
                id={`${id}-content`}
                rows={variant === 'dialog' ? 6 : 2}
                value={content}
                onChange={(e) => setContent(e.target.value)}
                onPaste={(event) => {
                  if (take(imageFiles(event.clipboardData.files))) event.preventDefault()
                }}
                placeholder={label}
                aria-describedby={`${id}-counter`}
                aria-invalid={tooLong || undefined}
                className="border-0 px-0 text-lg shadow-none focus-visible:ring-0 focus-visible:ring-offset-0"
              />

              {quote && (
                <div className="relative">
                  <QuotedPost quote={{ quoteOf: quote, quoteDetached: false }} linked={false} />
                  <button
                    type="button"
                    aria-label="Remove quote"
                    onClick={() => {
                      setQuote(null)
                      textarea.current?.focus()
                    }}
                    className="absolute right-1 top-1 rounded-full bg-black/70 p-1 text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <X className="size-3.5" aria-hidden="true" />
                  </button>
                </div>
              )}

              {attached.images.length > 0 && (
                <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Attached images">
                  {attached.images.map((image, index) => (
                    <li key={image.uploadUrl} className="relative">
                      {image.previewUrl ? (
                        // eslint-disable-next-line jsx-a11y/img-redundant-alt -- it names the attachment by position, as the remove button does
                        <img
                          src={image.previewUrl}
                          alt={`Attached image ${index + 1}`}
                          width={120}
                          height={120}
                          className="aspect-square w-full rounded-md bg-muted object-cover"
                        />
                      ) : (
                        // A draft kept without its thumbnail: the image is still attached, only not drawn.
                        <div
                          role="img"
                          aria-label={`Attached image ${index + 1}`}
                          className="flex aspect-square w-full items-center justify-center rounded-md bg-muted text-muted-foreground"
                        >
                          <ImageIcon className="size-6" aria-hidden="true" />
                        </div>
                      )}
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

              {imagesLost && (
                <p role="alert" className="rounded-md bg-destructive/15 px-3 py-2 text-sm">
                  The images in this draft are no longer on the server, so they were taken out. Your text is kept: add the
                  images again, then post.
                </p>
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
                      value={pollMinutes}
                      onChange={(e) => setPollMinutes(Number(e.target.value))}
                      className="h-9 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      {POLL_DURATIONS.map((duration) => (
                        <option key={duration.minutes} value={duration.minutes}>
                          {duration.label}
                        </option>
                      ))}
                    </select>
                  </div>
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={pollMultiple}
                      onChange={(e) => setPollMultiple(e.target.checked)}
                      className="size-4 accent-primary"
                    />
                    Let voters choose several options
                  </label>
                </fieldset>
              )}

              <div className="flex items-center justify-between gap-2">
                <div className="flex items-center gap-1">
                  <Button type="button" variant="ghost" size="icon" aria-label="Add images" disabled={imagesLeft <= 0} onClick={pickImages}>
                    <ImagePlus className="size-5 text-primary" aria-hidden="true" />
                  </Button>
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
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    aria-label={warning !== null ? 'Remove content warning' : 'Add content warning'}
                    aria-pressed={warning !== null}
                    onClick={toggleWarning}
                  >
                    <TriangleAlert className="size-5 text-primary" aria-hidden="true" />
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
      }}
    </ImageUploadButton>
  )
}

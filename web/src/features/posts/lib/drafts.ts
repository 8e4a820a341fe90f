// What a member is writing, kept in this browser until it is posted or discarded: one draft per
// member and composer context, in localStorage (it never leaves the browser). Forgotten when the
// member's session here ends (`forgetMemberStorage`).
import { DRAFT_KEY_PREFIX } from '@/lib/member-storage'

/** Where a composer is: Home's inline composer, the "Create Post" dialog, or a reply to a post. */
export type DraftContext = { kind: 'home' } | { kind: 'dialog' } | { kind: 'reply'; postId: number }

export interface DraftImage {
  /** The upload URL the server claims when the post is sent (its media id is in it). */
  uploadUrl: string
  /** A small `data:` thumbnail, or null when none could be made (then a placeholder shows). */
  previewUrl: string | null
  description: string
}

export interface Draft {
  content: string
  images: DraftImage[]
  /** The poll's options while a poll is open, else null. */
  pollOptions: string[] | null
  /** The poll's length in minutes (drafts kept before minutes have `pollHours` instead). */
  pollMinutes?: number
  pollHours?: number
  /** The poll takes several choices (absent in drafts kept before multiple choice). */
  pollMultiple?: boolean
  /** The content warning while its field is open, else null (absent in drafts kept before warnings). */
  contentWarning?: string | null
  /** When it was last written (ms since the epoch); old drafts are dropped. */
  savedAt: number
}

const PREFIX = DRAFT_KEY_PREFIX
/** Drafts not touched for a week are dropped: an upload is long gone by then anyway. */
export const DRAFT_MAX_AGE_MS = 7 * 24 * 3600_000
/** At most this many drafts are kept (replies to many posts add up); the oldest go first. */
export const MAX_DRAFTS = 20
/** A preview bigger than this is not kept (the thumbnails made here are a few KB). */
const MAX_PREVIEW_CHARS = 64_000

/** The one place draft keys are made: a member's draft for a context. */
export function draftKey(memberId: number, context: DraftContext): string {
  const where = context.kind === 'reply' ? `reply:${context.postId}` : context.kind
  return `${PREFIX}${memberId}:${where}`
}

/**
 * Whether a draft holds anything worth keeping (or asking about before throwing it away). A content
 * warning alone is not: a reply starts with its parent's.
 */
export function hasContent(draft: Pick<Draft, 'content' | 'images' | 'pollOptions'>): boolean {
  return (
    draft.content.trim() !== '' ||
    draft.images.length > 0 ||
    (draft.pollOptions ?? []).some((option) => option.trim() !== '')
  )
}

function isDraft(value: unknown): value is Draft {
  if (!value || typeof value !== 'object') return false
  const draft = value as Record<string, unknown>
  return (
    typeof draft.content === 'string' &&
    Array.isArray(draft.images) &&
    draft.images.every(
      (image: unknown) =>
        !!image &&
        typeof image === 'object' &&
        typeof (image as DraftImage).uploadUrl === 'string' &&
        typeof (image as DraftImage).description === 'string' &&
        ((image as DraftImage).previewUrl === null || typeof (image as DraftImage).previewUrl === 'string'),
    ) &&
    (draft.pollOptions === null || (Array.isArray(draft.pollOptions) && draft.pollOptions.every((o) => typeof o === 'string'))) &&
    (typeof draft.pollMinutes === 'number' || typeof draft.pollHours === 'number') &&
    (draft.contentWarning === undefined || draft.contentWarning === null || typeof draft.contentWarning === 'string') &&
    typeof draft.savedAt === 'number'
  )
}

function readAt(key: string): Draft | null {
  try {
    const text = localStorage.getItem(key)
    if (text === null) return null
    const parsed: unknown = JSON.parse(text)
    return isDraft(parsed) ? parsed : null
  } catch {
    return null
  }
}

function removeAt(key: string) {
  try {
    localStorage.removeItem(key)
  } catch {
    // Storage unavailable: nothing was kept either.
  }
}

/** Every draft key in this browser. */
function draftKeys(): string[] {
  try {
    return Object.keys(localStorage).filter((key) => key.startsWith(PREFIX))
  } catch {
    return []
  }
}

/** Drops drafts older than a week or unreadable, then the oldest beyond `MAX_DRAFTS`. */
export function pruneDrafts(now = Date.now()) {
  const kept: [string, number][] = []
  for (const key of draftKeys()) {
    const draft = readAt(key)
    if (!draft || now - draft.savedAt > DRAFT_MAX_AGE_MS) removeAt(key)
    else kept.push([key, draft.savedAt])
  }
  kept
    .sort((a, b) => b[1] - a[1])
    .slice(MAX_DRAFTS)
    .forEach(([key]) => removeAt(key))
}

/** The draft kept under `key`, if there is one younger than a week. */
export function loadDraft(key: string, now = Date.now()): Draft | null {
  const draft = readAt(key)
  if (!draft) return null
  if (now - draft.savedAt > DRAFT_MAX_AGE_MS) {
    removeAt(key)
    return null
  }
  return draft
}

/** Keeps `draft` under `key`, or removes the key when there is nothing in it. */
export function saveDraft(key: string, draft: Omit<Draft, 'savedAt'>, now = Date.now()) {
  if (!hasContent(draft)) {
    removeAt(key)
    return
  }
  const images = draft.images.map((image) => ({
    ...image,
    previewUrl:
      image.previewUrl?.startsWith('data:') && image.previewUrl.length <= MAX_PREVIEW_CHARS ? image.previewUrl : null,
  }))
  try {
    localStorage.setItem(key, JSON.stringify({ ...draft, images, savedAt: now }))
  } catch {
    // Storage full or refused: the draft lasts as long as the page.
  }
}

export function clearDraft(key: string) {
  removeAt(key)
}

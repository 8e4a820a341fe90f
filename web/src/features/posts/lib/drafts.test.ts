import { afterEach, describe, expect, it } from 'vitest'
import { DRAFT_MAX_AGE_MS, MAX_DRAFTS, clearDraft, draftKey, loadDraft, pruneDrafts, saveDraft } from './drafts'

const HOME = draftKey(1, { kind: 'home' })
const written = { content: 'Half a thought', images: [], pollOptions: null, pollMinutes: 1440, pollMultiple: false }

afterEach(() => localStorage.clear())

describe('the draft store', () => {
  it('keys a draft by member and context, one per reply', () => {
    expect(draftKey(1, { kind: 'home' })).not.toBe(draftKey(2, { kind: 'home' }))
    expect(draftKey(1, { kind: 'home' })).not.toBe(draftKey(1, { kind: 'dialog' }))
    expect(draftKey(1, { kind: 'reply', postId: 7 })).not.toBe(draftKey(1, { kind: 'reply', postId: 8 }))
  })

  it('gives back what was kept, until it is cleared', () => {
    saveDraft(HOME, written, 1_000)
    expect(loadDraft(HOME, 2_000)).toEqual({ ...written, savedAt: 1_000 })
    clearDraft(HOME)
    expect(loadDraft(HOME)).toBeNull()
  })

  it('keeps nothing for an empty composer, and forgets the draft it emptied', () => {
    saveDraft(HOME, written)
    saveDraft(HOME, { ...written, content: '   ', pollOptions: ['', ''] })
    expect(localStorage.getItem(HOME)).toBeNull()
  })

  it('keeps an image with its upload, description and thumbnail, but not a page-bound object URL', () => {
    const images = [
      { uploadUrl: '/api/objects/upload/a?sig=1', previewUrl: 'data:image/webp;base64,AAAA', description: 'A heron' },
      { uploadUrl: '/api/objects/upload/b?sig=2', previewUrl: 'blob:http://x/1', description: '' },
    ]
    saveDraft(HOME, { ...written, images })
    expect(loadDraft(HOME)?.images).toEqual([images[0], { ...images[1], previewUrl: null }])
  })

  it('drops a draft older than a week when it is read', () => {
    saveDraft(HOME, written, 0)
    expect(loadDraft(HOME, DRAFT_MAX_AGE_MS + 1)).toBeNull()
    expect(localStorage.getItem(HOME)).toBeNull()
  })

  it('prunes old and unreadable drafts, then the oldest beyond the limit, and leaves other keys alone', () => {
    localStorage.setItem('murmur-image-description-reminder', 'off')
    localStorage.setItem(draftKey(1, { kind: 'dialog' }), '{not json')
    saveDraft(draftKey(1, { kind: 'reply', postId: 1 }), written, 0)
    const now = DRAFT_MAX_AGE_MS + 10_000
    for (let i = 0; i < MAX_DRAFTS + 2; i++) saveDraft(draftKey(2, { kind: 'reply', postId: i }), written, now - i)
    pruneDrafts(now)
    const left = Object.keys(localStorage).filter((key) => key.startsWith('murmur-draft:'))
    expect(left).toHaveLength(MAX_DRAFTS)
    expect(left).not.toContain(draftKey(2, { kind: 'reply', postId: MAX_DRAFTS }))
    expect(left).toContain(draftKey(2, { kind: 'reply', postId: 0 }))
    expect(localStorage.getItem('murmur-image-description-reminder')).toBe('off')
  })
})

// What a member is writing in a conversation, kept in this browser until it is sent: one draft
// per member and conversation, in localStorage, so a reload or another screen loses nothing.
// Forgotten with everything else of the member's when their session here ends
// (`forgetMemberStorage`).
import { MESSAGE_DRAFT_KEY_PREFIX } from '@/lib/member-storage'

export function messageDraftKey(memberId: number, conversationId: number): string {
  return `${MESSAGE_DRAFT_KEY_PREFIX}${memberId}:${conversationId}`
}

export function loadMessageDraft(key: string): string {
  try {
    return localStorage.getItem(key) ?? ''
  } catch {
    return ''
  }
}

/** Keeps `text` under `key`, or removes the key when nothing is written. */
export function saveMessageDraft(key: string, text: string) {
  try {
    if (text.trim() === '') localStorage.removeItem(key)
    else localStorage.setItem(key, text)
  } catch {
    // Storage full or refused: the draft lasts as long as the page.
  }
}

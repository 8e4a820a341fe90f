// What this browser keeps for the member signed in here, apart from the browser's own choices
// (the theme, a dismissed suggestion): their drafts of posts and of messages. It is private to
// them, so it goes as soon as the app learns their session here ended: logging out, a 401, the
// live stream's `session-ended`, or a start with nobody signed in.

/** The prefix of a member's drafts (features/posts/lib/drafts.ts keys them by member and place). */
export const DRAFT_KEY_PREFIX = 'murmur-draft:'

/** The prefix of a member's unsent messages (features/messages/lib/drafts.ts keys them by member and conversation). */
export const MESSAGE_DRAFT_KEY_PREFIX = 'murmur-message-draft:'

/** Every prefix under which something of a member is kept. */
const MEMBER_KEY_PREFIXES = [DRAFT_KEY_PREFIX, MESSAGE_DRAFT_KEY_PREFIX]

function forgetIn(storage: Storage) {
  const keys = Object.keys(storage).filter((key) => MEMBER_KEY_PREFIXES.some((prefix) => key.startsWith(prefix)))
  for (const key of keys) storage.removeItem(key)
}

/** Removes everything kept for a member in this browser (every member's: nobody is signed in now). */
export function forgetMemberStorage() {
  for (const storage of [() => localStorage, () => sessionStorage]) {
    try {
      forgetIn(storage())
    } catch {
      // Storage unavailable: nothing was kept in it either.
    }
  }
}

// The server's rules for a post and its poll (crates/domain/src/posts/domain.rs), checked in the composer
// before sending so a member learns what is wrong where they typed it.
import { codePointLength } from '@/lib/utils'
import { POLL_OPTION_MAX_LENGTH, POST_MAX_LENGTH } from '@/lib/types'

/** A post's length as the server counts it: code points of the trimmed text. */
export function postLength(text: string): number {
  return codePointLength(text.trim())
}

/** An image description's length as the server counts it: code points of the trimmed text, NFC. */
export function descriptionLength(text: string): number {
  return codePointLength(text.trim().normalize('NFC'))
}

/** A content warning's length as the server counts it: code points of the trimmed text, NFC. */
export function warningLength(text: string): number {
  return codePointLength(text.trim().normalize('NFC'))
}

export function isPostTooLong(text: string): boolean {
  return postLength(text) > POST_MAX_LENGTH
}

export interface PollProblems {
  /** About the poll as a whole (too few options). */
  poll?: string
  /** About each option, by index. */
  options: (string | undefined)[]
}

/**
 * What the server would refuse in these options. Blank options are dropped before sending, so
 * a poll with no filled option is no poll at all (and fine).
 */
export function pollProblems(options: string[]): PollProblems {
  const trimmed = options.map((option) => option.trim())
  const problems: PollProblems = {
    options: trimmed.map((option, index) => {
      if (codePointLength(option) > POLL_OPTION_MAX_LENGTH)
        return `An option can be at most ${POLL_OPTION_MAX_LENGTH} characters long`
      if (option && trimmed.slice(0, index).includes(option)) return 'Options must be different from each other'
      return undefined
    }),
  }
  const filled = trimmed.filter(Boolean).length
  if (filled === 1) problems.poll = 'A poll needs at least 2 options'
  return problems
}

export function hasPollProblems(problems: PollProblems): boolean {
  return Boolean(problems.poll) || problems.options.some(Boolean)
}

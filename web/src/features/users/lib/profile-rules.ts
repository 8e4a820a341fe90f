// The server's rules for a profile (crates/domain/src/users/model.rs), checked in the Edit Profile form.
import { codePointLength } from '@/lib/utils'
import { BIO_MAX_LENGTH, DISPLAY_NAME_MAX_LENGTH, WEBSITE_MAX_LENGTH } from '@/lib/types'

export interface ProfileProblems {
  displayName?: string
  bio?: string
  website?: string
}

export function websiteProblem(raw: string): string | undefined {
  const website = raw.trim()
  if (!website) return undefined
  if (codePointLength(website) > WEBSITE_MAX_LENGTH) return `Website can be at most ${WEBSITE_MAX_LENGTH} characters long`
  const mustBeWeb = 'Website must be a web address starting with http:// or https://'
  if (!/^https?:\/\//i.test(website)) return mustBeWeb
  let url: URL
  try {
    url = new URL(website)
  } catch {
    return mustBeWeb
  }
  if (!url.hostname) return mustBeWeb
  if (url.username || url.password) return "Website cannot contain a user name or password"
  return undefined
}

export function profileProblems(edit: { displayName: string; bio: string; website: string }): ProfileProblems {
  const problems: ProfileProblems = {}
  const name = edit.displayName.trim()
  if (!name) problems.displayName = 'Display name cannot be empty'
  else if (codePointLength(name) > DISPLAY_NAME_MAX_LENGTH)
    problems.displayName = `Display name can be at most ${DISPLAY_NAME_MAX_LENGTH} characters long`
  if (codePointLength(edit.bio.trim()) > BIO_MAX_LENGTH) problems.bio = `Bio can be at most ${BIO_MAX_LENGTH} characters long`
  const website = websiteProblem(edit.website)
  if (website) problems.website = website
  return problems
}

/** The server's username rule (crates/domain/src/users/username.rs); the server also says whether it is free. */
export function usernameProblem(raw: string): string | undefined {
  if (!/^[A-Za-z0-9_]{3,20}$/.test(raw.trim())) return 'Usernames are 3 to 20 characters: letters, digits and underscores.'
  return undefined
}

/** Whether the server's refusal is about the username (taken, held, or changed too recently). */
export function isUsernameRefusal(message: string | undefined): boolean {
  return Boolean(message && /username/i.test(message))
}

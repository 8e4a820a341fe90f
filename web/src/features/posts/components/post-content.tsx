import { Link } from 'wouter'

const MENTION = /@([A-Za-z0-9_]+)/g

/** Post text with each @mention linking to that member's profile. */
export function PostContent({ text }: { text: string }) {
  const parts: React.ReactNode[] = []
  let last = 0
  for (const match of text.matchAll(MENTION)) {
    const start = match.index
    // an @ inside a word (an e-mail address) is not a mention
    if (start > 0 && /[A-Za-z0-9_]/.test(text[start - 1] ?? '')) continue
    if (start > last) parts.push(text.slice(last, start))
    const username = match[1] ?? ''
    parts.push(
      <Link key={start} href={`/profile/${username}`} className="font-medium text-primary hover:underline">
        @{username}
      </Link>,
    )
    last = start + match[0].length
  }
  if (last < text.length) parts.push(text.slice(last))
  return <p className="whitespace-pre-wrap break-words">{parts}</p>
}

import * as React from 'react'
import { Link } from 'wouter'
import type { Entity } from '@/lib/types'
import { highlightRanges, type HighlightTerm } from '../lib/highlight'

const ENTITY_CLASS = 'font-medium text-primary hover:underline'
const KINDS: readonly string[] = ['mention', 'hashtag', 'link'] satisfies Entity['type'][]
const SHORT_URL_LENGTH = 30

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff

/**
 * The entities that fit the text, in order: inside it, not splitting a character, not
 * overlapping an earlier one, of a known kind, and a link only to http(s). Any other is left as text.
 */
function usableEntities(text: string, entities: readonly Entity[]): Entity[] {
  const usable: Entity[] = []
  let end = 0
  for (const entity of [...entities].sort((a, b) => a.start - b.start)) {
    const { start, end: entityEnd } = entity
    const fits =
      Number.isInteger(start) &&
      Number.isInteger(entityEnd) &&
      start >= end &&
      start < entityEnd &&
      entityEnd <= text.length &&
      !isLowSurrogate(text.charCodeAt(start)) &&
      !isLowSurrogate(text.charCodeAt(entityEnd))
    if (!fits || !KINDS.includes(entity.type)) continue
    if (entity.type === 'link' && !/^https?:\/\//i.test(entity.value)) continue
    usable.push(entity)
    end = entityEnd
  }
  return usable
}

/** A URL as a card shows it: no scheme, no leading "www.", at most 30 characters. */
export function shortUrl(url: string): string {
  const bare = url.replace(/^https?:\/\//, '').replace(/^www\./, '')
  const chars = Array.from(bare)
  return chars.length > SHORT_URL_LENGTH ? `${chars.slice(0, SHORT_URL_LENGTH - 1).join('')}…` : bare
}

/** `text` with the search's words in <mark>. */
function marked(text: string, terms: readonly HighlightTerm[]): React.ReactNode {
  const ranges = highlightRanges(text, terms)
  if (ranges.length === 0) return text
  const parts: React.ReactNode[] = []
  let last = 0
  for (const [start, end] of ranges) {
    if (start > last) parts.push(text.slice(last, start))
    parts.push(
      <mark key={start} className="rounded-sm bg-primary/25 text-inherit">
        {text.slice(start, end)}
      </mark>,
    )
    last = end
  }
  if (last < text.length) parts.push(text.slice(last))
  return parts
}

function EntityLink({ entity, text, highlight }: { entity: Entity; text: string; highlight: readonly HighlightTerm[] }) {
  switch (entity.type) {
    case 'mention':
      return (
        <Link href={`/profile/${encodeURIComponent(entity.value)}`} className={ENTITY_CLASS}>
          {marked(text, highlight)}
        </Link>
      )
    case 'hashtag':
      return (
        <Link href={`/tag/${encodeURIComponent(entity.value)}`} className={ENTITY_CLASS}>
          {marked(text, highlight)}
        </Link>
      )
    case 'link':
      return (
        <a href={entity.value} title={entity.value} target="_blank" rel="noopener noreferrer nofollow" className={ENTITY_CLASS}>
          {marked(shortUrl(entity.value), highlight)}
        </a>
      )
  }
}

interface PostContentProps {
  text: string
  /** The server's mentions, hashtags and links in `text`; the only things drawn as links. */
  entities?: readonly Entity[]
  /** Words to mark, from a search. */
  highlight?: readonly HighlightTerm[]
}

/** Post text: its entities as links, the rest as plain text, a search's words marked. */
export function PostContent({ text, entities = [], highlight = [] }: PostContentProps) {
  const parts: React.ReactNode[] = []
  let last = 0
  for (const entity of usableEntities(text, entities)) {
    if (entity.start > last) parts.push(<React.Fragment key={`text-${last}`}>{marked(text.slice(last, entity.start), highlight)}</React.Fragment>)
    parts.push(<EntityLink key={entity.start} entity={entity} text={text.slice(entity.start, entity.end)} highlight={highlight} />)
    last = entity.end
  }
  if (last < text.length) parts.push(<React.Fragment key={`text-${last}`}>{marked(text.slice(last), highlight)}</React.Fragment>)
  return <p className="whitespace-pre-wrap break-words">{parts}</p>
}

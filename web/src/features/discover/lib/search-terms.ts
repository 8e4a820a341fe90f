import type { HighlightTerm } from '@/features/posts'
import { SEARCH_PREFIX_MIN_LENGTH } from '@/lib/types'

// A quoted phrase (an unclosed quote runs to the end, as the server reads it) or a run of other characters.
const TOKEN = /(-?)"([^"]*)"?|\S+/g
const WORD = /[\p{L}\p{M}\p{N}]+/gu
/** The server reads a last word of at least this many characters as the start of a longer one. */
const PREFIX_MIN_LENGTH = SEARCH_PREFIX_MIN_LENGTH

/**
 * The words of a post search to mark in its results: plain words, `#tag` words and the words of
 * "quoted phrases"; never `-excluded` ones or `from:` members. The query's last word, when it is
 * a plain word of 2 characters or more, also matches as the start of a longer one, as the server reads it.
 */
export function highlightTerms(query: string): HighlightTerm[] {
  const words: { word: string; prefix: boolean }[] = []
  const tokens = [...query.matchAll(TOKEN)]
  tokens.forEach((token, index) => {
    const [text, excludedPhrase, phrase] = token
    if (phrase !== undefined) {
      if (!excludedPhrase) for (const word of phrase.match(WORD) ?? []) words.push({ word, prefix: false })
      return
    }
    if (text.startsWith('-') || /^from:/i.test(text)) return
    const isLast = index === tokens.length - 1 && !text.startsWith('#')
    const inToken = text.match(WORD) ?? []
    inToken.forEach((word, i) => {
      const longEnough = Array.from(word).length >= PREFIX_MIN_LENGTH
      words.push({ word, prefix: isLast && longEnough && i === inToken.length - 1 })
    })
  })
  // One entry per word, a prefix if any of its uses is one.
  const byWord = new Map<string, HighlightTerm>()
  for (const term of words) {
    const key = term.word.toLowerCase()
    const seen = byWord.get(key)
    byWord.set(key, { word: seen?.word ?? term.word, prefix: term.prefix || (seen?.prefix ?? false) })
  }
  return [...byWord.values()]
}

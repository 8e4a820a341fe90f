/** A word to mark in post text: the whole word, or (`prefix`) any word that starts with it. */
export interface HighlightTerm {
  word: string
  prefix: boolean
}

const MARKS = /\p{M}/gu

// One character at a time, so the text and the words are folded alike (a whole-word
// lower-casing would turn a final Σ into ς in one and σ in the other).
const foldChar = (char: string) => char.toLowerCase().normalize('NFD').replace(MARKS, '')

/** Lower-case, without accents: "Café" and "cafe" read the same. */
export function fold(text: string): string {
  return Array.from(text, foldChar).join('')
}

/**
 * `text` folded, with `at[i]` the index in `text` of the character folded index `i` came from
 * (and `at[folded.length]` the text's length), so a match in the folded text maps back.
 */
function foldWithOffsets(text: string): { folded: string; at: number[] } {
  let folded = ''
  const at: number[] = []
  let index = 0
  for (const char of text) {
    const part = foldChar(char)
    for (let i = 0; i < part.length; i++) at.push(index)
    folded += part
    index += char.length
  }
  at.push(text.length)
  return { folded, at }
}

const wordCharBefore = (folded: string, index: number) => /[\p{L}\p{N}]$/u.test(folded.slice(Math.max(0, index - 2), index))
const wordCharAt = (folded: string, index: number) => /^[\p{L}\p{N}]/u.test(folded.slice(index, index + 2))

/**
 * Where `terms` occur in `text` as [start, end) ranges, sorted and merged: case- and
 * accent-insensitive, always at the start of a word; a term that is not a prefix must be the whole word.
 */
export function highlightRanges(text: string, terms: readonly HighlightTerm[]): [number, number][] {
  if (terms.length === 0 || !text) return []
  const { folded, at } = foldWithOffsets(text)
  const found: [number, number][] = []
  for (const term of terms) {
    const word = fold(term.word)
    if (!word) continue
    for (let from = folded.indexOf(word); from !== -1; from = folded.indexOf(word, from + 1)) {
      const to = from + word.length
      if (wordCharBefore(folded, from) || (!term.prefix && wordCharAt(folded, to))) continue
      found.push([at[from] ?? text.length, at[to] ?? text.length])
    }
  }
  found.sort((a, b) => a[0] - b[0])
  const merged: [number, number][] = []
  for (const [start, end] of found) {
    const last = merged.at(-1)
    if (last && start <= last[1]) last[1] = Math.max(last[1], end)
    else merged.push([start, end])
  }
  return merged
}

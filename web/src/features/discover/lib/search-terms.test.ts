import { describe, expect, it } from 'vitest'
import { highlightTerms } from './search-terms'

describe('the words a post search marks', () => {
  it('takes plain words whole and a last one of 2 characters or more as a prefix', () => {
    expect(highlightTerms('learning rus')).toEqual([
      { word: 'learning', prefix: false },
      { word: 'rus', prefix: true },
    ])
    expect(highlightTerms('learning lighthouses')).toEqual([
      { word: 'learning', prefix: false },
      { word: 'lighthouses', prefix: true },
    ])
    expect(highlightTerms('r')).toEqual([{ word: 'r', prefix: false }])
  })

  it('takes the words of quoted phrases, an unclosed one too, never as prefixes', () => {
    expect(highlightTerms('"tea time" biscuits "no milk')).toEqual([
      { word: 'tea', prefix: false },
      { word: 'time', prefix: false },
      { word: 'biscuits', prefix: false },
      { word: 'no', prefix: false },
      { word: 'milk', prefix: false },
    ])
  })

  it('leaves out excluded words and phrases and from: members, and takes a #tag as its word', () => {
    expect(highlightTerms('rust -java -"coffee break" from:ada #RustLang')).toEqual([
      { word: 'rust', prefix: false },
      { word: 'RustLang', prefix: false },
    ])
  })

  it('marks a word once, as a prefix if its last use is one', () => {
    expect(highlightTerms('Rust rust')).toEqual([{ word: 'Rust', prefix: true }])
  })

  it('has nothing to mark in a query of exclusions', () => {
    expect(highlightTerms('-spam -"buy now"')).toEqual([])
  })
})

import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Entity } from '@/lib/types'
import { PostContent, shortUrl } from './post-content'

const paragraph = (container: HTMLElement) => container.querySelector('p')

describe('post text', () => {
  it.each(['@ab', '@everyone', 'https://x.example/@ada', '@ada@example.com', 'Learning #RustLang'])(
    'draws %s as plain text when the server found no entities in it',
    (text) => {
      const { container } = render(<PostContent text={text} />)
      expect(screen.queryByRole('link')).not.toBeInTheDocument()
      expect(paragraph(container)).toHaveTextContent(text)
    },
  )

  it('links a mention, a hashtag and a URL at their UTF-16 offsets, after emoji of two code units each', () => {
    const text = '😀 hi @Ada, 🎉 #RustLang at https://www.example.com/some/long/path/to/a/page ok'
    const entities: Entity[] = [
      { type: 'mention', start: 6, end: 10, value: 'ada' },
      { type: 'hashtag', start: 15, end: 24, value: 'RustLang' },
      { type: 'link', start: 28, end: 76, value: 'https://www.example.com/some/long/path/to/a/page' },
    ]
    expect(entities.map((e) => text.slice(e.start, e.end))).toEqual(['@Ada', '#RustLang', entities[2]?.value])

    const { container } = render(<PostContent text={text} entities={entities} />)

    expect(screen.getByRole('link', { name: '@Ada' })).toHaveAttribute('href', '/profile/ada')
    expect(screen.getByRole('link', { name: '#RustLang' })).toHaveAttribute('href', '/tag/RustLang')
    const link = screen.getByRole('link', { name: 'example.com/some/long/path/to…' })
    expect(link).toHaveAttribute('href', 'https://www.example.com/some/long/path/to/a/page')
    expect(link).toHaveAttribute('title', 'https://www.example.com/some/long/path/to/a/page')
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow')
    expect(paragraph(container)).toHaveTextContent('😀 hi @Ada, 🎉 #RustLang at example.com/some/long/path/to… ok', {
      normalizeWhitespace: false,
    })
  })

  it("encodes a hashtag's value into its address", () => {
    render(<PostContent text="#café" entities={[{ type: 'hashtag', start: 0, end: 5, value: 'café' }]} />)
    expect(screen.getByRole('link', { name: '#café' })).toHaveAttribute('href', '/tag/caf%C3%A9')
  })

  it('leaves as text an entity out of range, overlapping another, splitting an emoji, or linking elsewhere than http(s)', () => {
    const text = 'hi @ada 😀 javascript:alert(1)'
    const { container } = render(
      <PostContent
        text={text}
        entities={[
          { type: 'mention', start: 3, end: 7, value: 'ada' },
          { type: 'mention', start: 5, end: 7, value: 'da' },
          { type: 'hashtag', start: 9, end: 10, value: 'x' },
          { type: 'link', start: 11, end: 30, value: 'javascript:alert(1)' },
          { type: 'mention', start: 20, end: 99, value: 'nobody' },
        ]}
      />,
    )
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual(['@ada'])
    expect(paragraph(container)).toHaveTextContent(text, { normalizeWhitespace: false })
  })

  it('shortens a URL past 30 characters to 29 and an ellipsis, without scheme or www.', () => {
    expect(shortUrl('http://www.example.com/a')).toBe('example.com/a')
    expect(shortUrl('https://example.com/123456789012345678')).toBe('example.com/123456789012345678')
    expect(shortUrl('https://example.com/1234567890123456789')).toBe('example.com/12345678901234567…')
  })
})

describe('post text with a search highlighted', () => {
  const marks = (container: HTMLElement) => [...container.querySelectorAll('mark')].map((mark) => mark.textContent)

  it('marks the start of a word with a prefix term, inside a hashtag link too', () => {
    const { container } = render(
      <PostContent
        text="Learning #RustLang, rustling leaves, trust"
        entities={[{ type: 'hashtag', start: 9, end: 18, value: 'RustLang' }]}
        highlight={[{ word: 'rustl', prefix: true }]}
      />,
    )
    expect(marks(container)).toEqual(['RustL', 'rustl'])
    expect(screen.getByRole('link', { name: '#RustLang' })).toContainHTML('<mark')
  })

  it('marks whole words regardless of case and accents', () => {
    const { container } = render(
      <PostContent text="Café CAFE cafeteria naïve" highlight={[{ word: 'cafe', prefix: false }, { word: 'NAIVE', prefix: false }]} />,
    )
    expect(marks(container)).toEqual(['Café', 'CAFE', 'naïve'])
  })

  it('marks a word with a combining accent to its end', () => {
    const { container } = render(<PostContent text={'cafe\u0301 au lait'} highlight={[{ word: 'café', prefix: false }]} />)
    expect(marks(container)).toEqual(['cafe\u0301'])
  })
})

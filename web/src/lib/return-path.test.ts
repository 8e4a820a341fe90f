import { describe, expect, it } from 'vitest'
import { returnPath } from './return-path'

describe('a page to return to after signing in', () => {
  it('is a path of this site', () => {
    for (const path of ['/post/42', '/profile/ada?tab=likes', '/tag/caf%C3%A9']) expect(returnPath(path)).toBe(path)
  })

  it('is never another site, nor anything a browser could read as one', () => {
    for (const path of [
      '//evil.example',
      '//evil.example/post/1',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'post/42',
      '/post/42 x',
      '/post/\n42',
      '/a//b',
      '',
      null,
      `/${'a'.repeat(512)}`,
    ])
      expect(returnPath(path)).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { titleWithUnread } from './unread-title'

describe('the tab title', () => {
  it('puts the unread count in front', () => {
    expect(titleWithUnread('Murmur', 3)).toBe('(3) Murmur')
    expect(titleWithUnread('Murmur', 120)).toBe('(120) Murmur')
  })

  it('is the plain title at no unread', () => {
    expect(titleWithUnread('Murmur', 0)).toBe('Murmur')
    expect(titleWithUnread('(3) Murmur', 0)).toBe('Murmur')
  })

  it('replaces the count it put there, and keeps the rest of the title', () => {
    expect(titleWithUnread('(3) Murmur', 4)).toBe('(4) Murmur')
    expect(titleWithUnread('(3) Thread · Murmur', 1)).toBe('(1) Thread · Murmur')
    expect(titleWithUnread('(draft) Murmur', 2)).toBe('(2) (draft) Murmur')
  })
})

import { describe, expect, it } from 'vitest'
import { aUser } from '@/test/test-utils'
import { conversationTitle, putAwayLabel } from './names'

const named = (...names: string[]) => names.map((displayName) => ({ displayName }))

describe("a conversation's name", () => {
  it('says who else is in it', () => {
    expect(conversationTitle(named('Ada'))).toBe('Ada')
    expect(conversationTitle(named('Ada', 'Bob'))).toBe('Ada and Bob')
    expect(conversationTitle(named('Ada', 'Bob', 'Cyd'))).toBe('Ada, Bob and 1 other')
    expect(conversationTitle(named('Ada', 'Bob', 'Cyd', 'Dee'))).toBe('Ada, Bob and 2 others')
    expect(conversationTitle([])).toBe('No one else')
  })

  it('puts a request away by declining, a group by leaving and one of two by hiding', () => {
    expect(putAwayLabel({ box: 'requests', members: [] })).toBe('Decline')
    expect(putAwayLabel({ box: 'inbox', members: [] })).toBe('Hide')
    expect(putAwayLabel({ box: 'inbox', members: [aUser, aUser] })).toBe('Leave')
  })
})

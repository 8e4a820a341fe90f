import { describe, expect, it } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { authKeys, postKeys } from '@/lib/query-keys'
import { FIRST_SCREEN_ID, readFirstScreen, seedFirstScreen } from './first-screen'

function documentWith(json: string | null): Document {
  const doc = document.implementation.createHTMLDocument('t')
  if (json !== null) {
    const block = doc.createElement('script')
    block.type = 'application/json'
    block.id = FIRST_SCREEN_ID
    block.textContent = json
    doc.head.appendChild(block)
  }
  return doc
}

const me = { id: 1, username: 'ada', displayName: 'Ada' }
const post = { id: 7, content: '</script> & <b>', author: me }

describe('first screen', () => {
  it('reads the block once, with escaped text as the member wrote it', () => {
    const doc = documentWith(JSON.stringify({ me, feed: [post] }).replace(/</g, '\\u003c').replace(/&/g, '\\u0026'))
    const screen = readFirstScreen(doc)
    expect(screen?.me).toEqual(me)
    expect(screen?.feed?.[0]?.content).toBe('</script> & <b>')
    expect(doc.getElementById(FIRST_SCREEN_ID)).toBeNull()
    expect(readFirstScreen(doc)).toBeUndefined()
  })

  it('ignores a missing or malformed block', () => {
    for (const json of [null, '', 'not json', '[]', '{}', '{"me": 3}', '{"me": [1]}', '{"me": null, "feed": {}}']) {
      expect(readFirstScreen(documentWith(json))).toBeUndefined()
    }
  })

  it('seeds who is asking and Home\'s first page under the queries\' keys', () => {
    const client = new QueryClient()
    seedFirstScreen(client, { me: me as never, feed: [post as never] })
    expect(client.getQueryData(authKeys.me())).toEqual(me)
    expect(client.getQueryData(postKeys.feed())).toEqual({ pages: [[post]], pageParams: [0] })
  })

  it('seeds a visitor as nobody, and nothing without a block', () => {
    const client = new QueryClient()
    seedFirstScreen(client, { me: null })
    expect(client.getQueryState(authKeys.me())?.status).toBe('success')
    expect(client.getQueryData(authKeys.me())).toBeNull()
    expect(client.getQueryData(postKeys.feed())).toBeUndefined()
    const empty = new QueryClient()
    seedFirstScreen(empty, undefined)
    expect(empty.getQueryState(authKeys.me())).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import { parseLiveEvent } from './live-event'

describe('parsing a live event', () => {
  it('reads every event of the contract', () => {
    expect(parseLiveEvent('hello', '{}')).toEqual({ type: 'hello' })
    expect(parseLiveEvent('notification', '{}')).toEqual({ type: 'notification' })
    expect(parseLiveEvent('unread-count', '{"count":3}')).toEqual({ type: 'unread-count', count: 3 })
    expect(parseLiveEvent('feed', '{"postIds":[7,9]}')).toEqual({ type: 'feed', postIds: [7, 9] })
    expect(parseLiveEvent('post-counts', '{"postId":5,"likeCount":2,"repostCount":1,"replyCount":0}')).toEqual({
      type: 'post-counts',
      postId: 5,
      likeCount: 2,
      repostCount: 1,
      replyCount: 0,
    })
    expect(parseLiveEvent('post-card', '{"postId":5}')).toEqual({ type: 'post-card', postId: 5 })
    expect(parseLiveEvent('message', '{"conversationId":4}')).toEqual({ type: 'message', conversationId: 4 })
    expect(parseLiveEvent('message', '{"conversationId":0}')).toBeNull()
    expect(parseLiveEvent('reset', '{}')).toEqual({ type: 'reset' })
    expect(parseLiveEvent('session-ended', '{}')).toEqual({ type: 'session-ended' })
  })

  it('ignores fields the app does not use', () => {
    expect(parseLiveEvent('unread-count', '{"count":0,"at":"now"}')).toEqual({ type: 'unread-count', count: 0 })
  })

  it('drops an event whose name it does not know', () => {
    expect(parseLiveEvent('message', '{}')).toBeNull()
    expect(parseLiveEvent('toString', '{}')).toBeNull()
  })

  it('drops data that is not a JSON object', () => {
    expect(parseLiveEvent('hello', '')).toBeNull()
    expect(parseLiveEvent('hello', 'not json')).toBeNull()
    expect(parseLiveEvent('notification', '[]')).toBeNull()
    expect(parseLiveEvent('reset', 'null')).toBeNull()
  })

  it('drops counts and ids that are not what the contract says', () => {
    expect(parseLiveEvent('unread-count', '{}')).toBeNull()
    expect(parseLiveEvent('unread-count', '{"count":-1}')).toBeNull()
    expect(parseLiveEvent('unread-count', '{"count":"3"}')).toBeNull()
    expect(parseLiveEvent('feed', '{"postIds":[1,"2"]}')).toBeNull()
    expect(parseLiveEvent('feed', '{"postIds":[1.5]}')).toBeNull()
    expect(parseLiveEvent('feed', '{"postIds":7}')).toBeNull()
    expect(parseLiveEvent('post-counts', '{"postId":5,"likeCount":2,"repostCount":1}')).toBeNull()
    expect(parseLiveEvent('post-counts', '{"postId":0,"likeCount":2,"repostCount":1,"replyCount":0}')).toBeNull()
  })
})

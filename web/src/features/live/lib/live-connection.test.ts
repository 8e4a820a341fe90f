import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeEventSource } from '@/test/fake-event-source'
import { createLiveConnection } from './live-connection'
import type { LiveEvent } from './live-event'

/** Lets the connection's end-of-task work (following a post) run. */
const settle = () => Promise.resolve()

function connect() {
  const events: LiveEvent[] = []
  const connection = createLiveConnection({
    open: (url) => new FakeEventSource(url),
    onEvent: (event) => events.push(event),
    random: () => 1,
  })
  return { connection, events }
}

const urls = () => FakeEventSource.opened.map((source) => source.url)

beforeEach(() => {
  FakeEventSource.reset()
  vi.useFakeTimers()
})

afterEach(() => {
  vi.useRealTimers()
})

describe('the live connection', () => {
  it('opens one stream at the start, and passes its events on parsed', () => {
    const { connection, events } = connect()
    connection.start()
    connection.start()
    expect(urls()).toEqual(['/api/events'])
    FakeEventSource.latest.emit('unread-count', { count: 3 }, '41')
    FakeEventSource.latest.emit('feed', { postIds: 'nope' }, '42')
    FakeEventSource.latest.emit('hello', {}, '42')
    expect(events).toEqual([{ type: 'unread-count', count: 3 }, { type: 'hello' }])
  })

  it('leaves reconnecting to the browser while it is trying', () => {
    const { connection } = connect()
    connection.start()
    FakeEventSource.latest.fail({ gaveUp: false })
    vi.advanceTimersByTime(60_000)
    expect(urls()).toEqual(['/api/events'])
  })

  it('opens a new stream after a back-off when the browser gives up, from the last event seen', () => {
    const { connection } = connect()
    connection.start()
    FakeEventSource.latest.emit('notification', {}, '17')
    FakeEventSource.latest.fail({ gaveUp: true })
    vi.advanceTimersByTime(999)
    expect(urls()).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(urls()).toEqual(['/api/events', '/api/events?lastEventId=17'])
  })

  it('doubles the wait after each stream that fails, up to 30 s, and starts over once one says hello', () => {
    const { connection } = connect()
    connection.start()
    const waits: number[] = []
    for (let i = 0; i < 7; i++) {
      const before = FakeEventSource.opened.length
      FakeEventSource.latest.fail({ gaveUp: true })
      let waited = 0
      while (FakeEventSource.opened.length === before) {
        vi.advanceTimersByTime(500)
        waited += 500
      }
      waits.push(waited)
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000])

    FakeEventSource.latest.emit('hello', {}, '3')
    FakeEventSource.latest.fail({ gaveUp: true })
    vi.advanceTimersByTime(1_000)
    expect(FakeEventSource.latest.url).toBe('/api/events?lastEventId=3')
  })

  it('reopens the stream to follow a post, passing the last event id, and closes the old one', async () => {
    const { connection } = connect()
    connection.start()
    const first = FakeEventSource.latest
    first.emit('hello', {}, '8')
    connection.follow(5)
    await settle()
    expect(urls()).toEqual(['/api/events', '/api/events?post=5&lastEventId=8'])
    expect(first.isClosed).toBe(true)

    connection.follow(null)
    await settle()
    expect(FakeEventSource.latest.url).toBe('/api/events?lastEventId=8')
  })

  it('opens one stream when a screen stops following one post and follows another in the same go', async () => {
    const { connection } = connect()
    connection.start()
    connection.follow(5)
    connection.follow(null)
    connection.follow(5)
    await settle()
    connection.follow(null)
    connection.follow(6)
    await settle()
    connection.follow(null)
    connection.follow(6)
    await settle()
    expect(urls()).toEqual(['/api/events', '/api/events?post=5', '/api/events?post=6'])
  })

  it('follows a post asked for before the start with its first stream', async () => {
    const { connection } = connect()
    connection.follow(5)
    connection.start()
    await settle()
    expect(urls()).toEqual(['/api/events?post=5'])
  })

  it('ignores what an old stream says after it was replaced', async () => {
    const { connection, events } = connect()
    connection.start()
    const old = FakeEventSource.latest
    connection.follow(5)
    await settle()
    old.emit('unread-count', { count: 9 }, '99')
    old.fail({ gaveUp: true })
    vi.advanceTimersByTime(60_000)
    expect(events).toEqual([])
    expect(urls()).toEqual(['/api/events', '/api/events?post=5'])
  })

  it('closes for good when the session ends: no reconnect, no following', async () => {
    const { connection, events } = connect()
    connection.start()
    FakeEventSource.latest.emit('session-ended', {}, '5')
    expect(events).toEqual([{ type: 'session-ended' }])
    expect(FakeEventSource.latest.isClosed).toBe(true)
    FakeEventSource.latest.fail({ gaveUp: true })
    connection.follow(7)
    await settle()
    vi.advanceTimersByTime(60_000)
    expect(urls()).toEqual(['/api/events'])
  })

  it('closes the stream and any pending reconnect at close', () => {
    const { connection } = connect()
    connection.start()
    FakeEventSource.latest.fail({ gaveUp: true })
    connection.close()
    vi.advanceTimersByTime(60_000)
    expect(urls()).toEqual(['/api/events'])

    const other = connect()
    other.connection.start()
    other.connection.close()
    expect(FakeEventSource.latest.isClosed).toBe(true)
  })
})

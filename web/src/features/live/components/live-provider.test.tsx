import * as React from 'react'
import { act } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeEventSource } from '@/test/fake-event-source'
import { json, mockFetch, renderWithProviders } from '@/test/test-utils'
import { LiveProvider, useLivePost } from './live-provider'

function Thread({ postId }: { postId: number }) {
  useLivePost(postId)
  return null
}

/** The member screens, with a thread open or not. */
function Screens({ thread }: { thread?: number }) {
  return <LiveProvider>{thread !== undefined && <Thread postId={thread} />}</LiveProvider>
}

const urls = () => FakeEventSource.opened.map((source) => source.url)
const open = () => FakeEventSource.opened.filter((source) => !source.isClosed)

beforeEach(() => {
  FakeEventSource.reset()
  vi.stubGlobal('EventSource', FakeEventSource)
  mockFetch(() => json({}))
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the live provider', () => {
  it('holds one stream while the member screens are mounted, and closes it when they go', () => {
    const { unmount } = renderWithProviders(<Screens />)
    expect(urls()).toEqual(['/api/events'])
    unmount()
    expect(open()).toEqual([])
  })

  it('reopens the one stream to follow the open thread, and again without it when the thread closes', async () => {
    const { rerender } = renderWithProviders(<Screens />)
    const show = async (element: React.ReactElement) => {
      rerender(element)
      await act(() => Promise.resolve())
    }
    act(() => FakeEventSource.latest.emit('hello', {}, '12'))

    await show(<Screens thread={5} />)
    expect(FakeEventSource.latest.url).toBe('/api/events?post=5&lastEventId=12')
    await show(<Screens thread={6} />)
    expect(FakeEventSource.latest.url).toBe('/api/events?post=6&lastEventId=12')
    await show(<Screens />)
    expect(FakeEventSource.latest.url).toBe('/api/events?lastEventId=12')
    expect(open()).toHaveLength(1)
  })

  it("follows a thread opened first, from the stream's start", async () => {
    renderWithProviders(<Screens thread={5} />)
    await act(() => Promise.resolve())
    expect(urls()).toEqual(['/api/events?post=5'])
  })

  it('opens no stream where the browser has no EventSource', () => {
    vi.stubGlobal('EventSource', undefined)
    renderWithProviders(<Screens thread={5} />)
    expect(urls()).toEqual([])
  })
})

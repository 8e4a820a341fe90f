import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { browserSubscription, fakePush, SERVER_KEY, uninstallFakePush } from '@/test/fake-push'
import { json, jsonBody, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import type { NewPushSubscription } from '@/lib/types'
import { SUGGESTION_DISMISSED_KEY } from '../lib/suggestion'
import { PushSuggestion } from './push-suggestion'

afterEach(uninstallFakePush)

function pushServer() {
  return mockFetch((url, init) => {
    if (url === '/api/push/key') return json({ publicKey: SERVER_KEY })
    if (url === '/api/push/subscriptions' && init.method === 'POST') {
      const body = jsonBody(init) as NewPushSubscription
      return json({ ...body, serverKey: SERVER_KEY, createdAt: '2026-11-01T10:00:00Z' })
    }
    throw new Error(`unexpected request: ${init.method ?? 'GET'} ${url}`)
  })
}

const suggestion = () => screen.queryByRole('region', { name: 'Get notified when Murmur is closed?' })

describe('the suggestion to turn on notifications', () => {
  it('is offered without asking the browser; Turn on does what the Settings switch does', async () => {
    const browser = fakePush({ permission: 'default' })
    const fetch = pushServer()
    renderWithProviders(<PushSuggestion />)
    expect(suggestion()).toBeInTheDocument()
    expect(browser.asked).toBe(0)
    expect(requestsOf(fetch)).toEqual([])

    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(await screen.findByText('Notifications are on for this device')).toBeInTheDocument()
    expect(browser.asked).toBe(1)
    expect(browser.registered).toEqual([{ url: '/sw.js', scope: '/' }])
    expect(requestsOf(fetch).filter(({ call }) => call.startsWith('POST'))).toEqual([
      {
        call: 'POST /api/push/subscriptions',
        body: {
          ...browserSubscription(1),
          alerts: { reply: true, mention: true, like: true, repost: true, quote: true, follow: true, poll: true, message: true },
          policy: 'all',
        },
      },
    ])
    // Asked and answered: it is not offered again.
    await vi.waitFor(() => expect(suggestion()).not.toBeInTheDocument())
  })

  it('goes for good with Not now', async () => {
    const browser = fakePush({ permission: 'default' })
    const fetch = pushServer()
    const { unmount } = renderWithProviders(<PushSuggestion />)
    await userEvent.click(screen.getByRole('button', { name: 'Not now' }))
    expect(suggestion()).not.toBeInTheDocument()
    expect(localStorage.getItem(SUGGESTION_DISMISSED_KEY)).toBe('on')
    unmount()
    // Another visit to the screen.
    renderWithProviders(<PushSuggestion />)
    expect(suggestion()).not.toBeInTheDocument()
    expect(browser.asked).toBe(0)
    expect(requestsOf(fetch)).toEqual([])
  })

  it('is not offered once the browser was answered, or where it cannot get notifications', () => {
    fakePush({ permission: 'granted' })
    const { unmount } = renderWithProviders(<PushSuggestion />)
    expect(suggestion()).not.toBeInTheDocument()
    unmount()
    uninstallFakePush()
    fakePush({ permission: 'denied' })
    const second = renderWithProviders(<PushSuggestion />)
    expect(suggestion()).not.toBeInTheDocument()
    second.unmount()
    uninstallFakePush()
    renderWithProviders(<PushSuggestion />)
    expect(suggestion()).not.toBeInTheDocument()
  })
})

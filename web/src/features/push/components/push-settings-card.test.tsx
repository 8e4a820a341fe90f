import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { browserSubscription, fakePush, SERVER_KEY, uninstallFakePush } from '@/test/fake-push'
import { json, jsonBody, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import type { NewPushSubscription, SavedPushSubscription } from '@/lib/types'
import { PushSettingsCard } from './push-settings-card'

afterEach(uninstallFakePush)

const everything = { reply: true, mention: true, like: true, repost: true, quote: true, follow: true, poll: true, message: true }
const nothing = { reply: false, mention: false, like: false, repost: false, quote: false, follow: false, poll: false, message: false }

/** The server's push routes, keeping this session's subscription; `failPosts` answers every POST 500. */
function pushServer(saved: SavedPushSubscription | null = null, { failPosts = false } = {}) {
  let current = saved
  return mockFetch((url, init) => {
    if (url === '/api/push/key') return json({ publicKey: SERVER_KEY })
    if (url !== '/api/push/subscriptions') throw new Error(`unexpected request: ${url}`)
    if (init.method === 'POST') {
      if (failPosts) return json({ message: 'Something went wrong' }, 500)
      const body = jsonBody(init) as NewPushSubscription
      current = {
        endpoint: body.endpoint,
        // The server names every alert: those the request left out are off.
        alerts: { ...nothing, ...body.alerts },
        policy: body.policy ?? 'all',
        serverKey: SERVER_KEY,
        createdAt: '2026-11-01T10:00:00Z',
      }
      return json(current)
    }
    if (init.method === 'DELETE') {
      current = null
      return new Response(null, { status: 204 })
    }
    return current ? json(current) : json({ message: 'This session has no push subscription' }, 404)
  })
}

const posts = (fetch: ReturnType<typeof mockFetch>) =>
  requestsOf(fetch).filter(({ call }) => call === 'POST /api/push/subscriptions').map(({ body }) => body)

async function card() {
  return screen.findByRole('region', { name: 'Notifications on this device' })
}

describe('Notifications on this device', () => {
  it('asks nothing on load; turned on, it asks the browser, subscribes with the key and sends the subscription', async () => {
    const browser = fakePush({ permission: 'default' })
    const fetch = pushServer()
    renderWithProviders(<PushSettingsCard />)
    const region = await card()
    const main = await within(region).findByRole('switch', { name: 'Notify me on this device' })
    expect(main).not.toBeChecked()
    // Nothing is asked of the browser or the server before the member's click.
    expect(browser.asked).toBe(0)
    expect(browser.registered).toEqual([])
    expect(requestsOf(fetch)).toEqual([])
    expect(within(region).queryByRole('switch', { name: 'Likes' })).not.toBeInTheDocument()

    await userEvent.click(main)
    await vi.waitFor(() => expect(main).toBeChecked())
    expect(browser.asked).toBe(1)
    expect(browser.registered).toEqual([{ url: '/sw.js', scope: '/' }])
    expect(browser.subscribeCalls).toHaveLength(1)
    expect(browser.subscribeCalls[0].userVisibleOnly).toBe(true)
    expect(new Uint8Array(browser.subscribeCalls[0].applicationServerKey as Uint8Array)).toHaveLength(65)
    expect(posts(fetch)).toEqual([{ ...browserSubscription(1), alerts: everything, policy: 'all' }])
    for (const name of ['Replies', 'Mentions', 'Likes', 'Reposts', 'Quotes', 'New followers', 'Polls'])
      expect(within(region).getByRole('switch', { name })).toBeChecked()
    expect(within(region).getByRole('radio', { name: 'From everyone' })).toBeChecked()
  })

  it('saves each choice as the same subscription posted again, and turned off ends it on both sides', async () => {
    const browser = fakePush({ permission: 'granted', subscribed: true })
    const fetch = pushServer({
      ...browserSubscription(1),
      alerts: { ...everything, like: false },
      policy: 'all',
      serverKey: SERVER_KEY,
      createdAt: '2026-11-01T10:00:00Z',
    })
    renderWithProviders(<PushSettingsCard />)
    const region = await card()
    const likes = await within(region).findByRole('switch', { name: 'Likes' })
    // What the server kept is what is shown.
    expect(likes).not.toBeChecked()
    expect(within(region).getByRole('switch', { name: 'Notify me on this device' })).toBeChecked()

    await userEvent.click(within(region).getByRole('switch', { name: 'Reposts' }))
    await userEvent.click(within(region).getByRole('radio', { name: 'Only people I follow' }))
    await vi.waitFor(() => expect(posts(fetch)).toHaveLength(2))
    expect(posts(fetch)).toEqual([
      { ...browserSubscription(1), alerts: { ...everything, like: false, repost: false }, policy: 'all' },
      { ...browserSubscription(1), alerts: { ...everything, like: false, repost: false }, policy: 'followed' },
    ])
    expect(await within(region).findByText('Saved.')).toBeInTheDocument()
    expect(within(region).getByRole('radio', { name: 'Only people I follow' })).toBeChecked()
    // The browser was not asked again, nor subscribed anew.
    expect(browser.asked).toBe(0)
    expect(browser.subscribeCalls).toEqual([])

    await userEvent.click(within(region).getByRole('switch', { name: 'Notify me on this device' }))
    await vi.waitFor(() => expect(requestsOf(fetch).map(({ call }) => call)).toContain('DELETE /api/push/subscriptions'))
    await vi.waitFor(() => expect(browser.unsubscribed).toBe(1))
    expect(within(region).getByRole('switch', { name: 'Notify me on this device' })).not.toBeChecked()
    expect(within(region).queryByRole('switch', { name: 'Likes' })).not.toBeInTheDocument()
  })

  it('says a choice was not saved and shows what the server kept', async () => {
    fakePush({ permission: 'granted', subscribed: true })
    pushServer(
      { ...browserSubscription(1), alerts: everything, policy: 'all', serverKey: SERVER_KEY, createdAt: '2026-11-01T10:00:00Z' },
      { failPosts: true },
    )
    renderWithProviders(<PushSettingsCard />)
    const region = await card()
    const mentions = await within(region).findByRole('switch', { name: 'Mentions' })
    await userEvent.click(mentions)
    expect(await screen.findByText('Your notification choice was not saved. Please try again.')).toBeInTheDocument()
    await vi.waitFor(() => expect(mentions).toBeChecked())
  })

  it('says how to allow notifications when the browser blocks them, and never asks', async () => {
    const browser = fakePush({ permission: 'denied' })
    const fetch = pushServer()
    renderWithProviders(<PushSettingsCard />)
    const region = await card()
    expect(await within(region).findByRole('switch', { name: 'Notify me on this device' })).toBeDisabled()
    expect(within(region).getByText('Notifications are blocked for Murmur in this browser.')).toBeInTheDocument()
    expect(within(region).getByText(/set Notifications to Allow/)).toBeInTheDocument()
    expect(browser.asked).toBe(0)
    expect(requestsOf(fetch)).toEqual([])
  })

  it('stays off when the member blocks at the browser question, and sends nothing', async () => {
    fakePush({ permission: 'default', answer: 'denied' })
    const fetch = pushServer()
    renderWithProviders(<PushSettingsCard />)
    const region = await card()
    await userEvent.click(await within(region).findByRole('switch', { name: 'Notify me on this device' }))
    expect(await within(region).findByText('Notifications are blocked for Murmur in this browser.')).toBeInTheDocument()
    expect(within(region).getByRole('switch', { name: 'Notify me on this device' })).not.toBeChecked()
    expect(posts(fetch)).toEqual([])
  })

  it('says why when the browser has no push service to subscribe with, and sends nothing', async () => {
    fakePush({ permission: 'granted', subscribeFails: true })
    const fetch = pushServer()
    renderWithProviders(<PushSettingsCard />)
    const region = await card()
    await userEvent.click(await within(region).findByRole('switch', { name: 'Notify me on this device' }))
    expect(
      await screen.findByText("This browser has no push service it can reach, so it can't get notifications from Murmur."),
    ).toBeInTheDocument()
    expect(within(region).getByRole('switch', { name: 'Notify me on this device' })).not.toBeChecked()
    expect(posts(fetch)).toEqual([])
  })

  it("says the server's reason when it refuses the subscription", async () => {
    fakePush({ permission: 'granted' })
    mockFetch((url) =>
      url === '/api/push/key'
        ? json({ publicKey: SERVER_KEY })
        : json({ message: 'This session has too many push subscriptions' }, 422),
    )
    renderWithProviders(<PushSettingsCard />)
    const region = await card()
    await userEvent.click(await within(region).findByRole('switch', { name: 'Notify me on this device' }))
    expect(
      await screen.findByText('The server refused this device: This session has too many push subscriptions'),
    ).toBeInTheDocument()
    expect(within(region).getByRole('switch', { name: 'Notify me on this device' })).not.toBeChecked()
  })

  it('says when this browser cannot get notifications at all', async () => {
    const fetch = pushServer()
    renderWithProviders(<PushSettingsCard />)
    const region = await card()
    expect(within(region).getByText("This browser can't show notifications from Murmur.")).toBeInTheDocument()
    expect(within(region).queryByRole('switch')).not.toBeInTheDocument()
    expect(requestsOf(fetch)).toEqual([])
  })
})

// Web Push in a real browser against the real `murmur serve` (fresh SQLite data dir): the quiet
// suggestion on the notifications screen, the Settings switch registering the service worker
// (web/src/service-worker/sw.ts) and subscribing, and a push delivered to that worker through
// the DevTools protocol: the notification it shows, grouped by tag, and its click opening the
// post in the open tab. Screenshots of the settings card (360 px, light and dark) go to /tmp.
// Skips, saying why, when the server binary is missing.
import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CDPSession, Page } from 'playwright-core'
import { PHONE } from './support/browser'
import { type AdaAndBob, call, darkPage, noHorizontalScroll, startAdaAndBob } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the Web Push journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const SHOTS = '/tmp/murmur-push-screenshots'

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true })
  await page.evaluate(() => document.fonts.ready)
  await page.waitForTimeout(250)
  await page.screenshot({ path: `${SHOTS}/${name}.png` })
}

/** The notifications the service worker shows, as the page's registration lists them. */
function shownNotifications(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready
    const shown = await registration.getNotifications()
    return shown.map(({ title, body, tag, data }) => ({ title, body, tag, data: data as unknown }))
  })
}

interface Registration {
  registrationId: string
  scopeURL: string
  isDeleted: boolean
}

describe.skipIf(!hasMurmur)('Web Push in a browser', () => {
  let journey: AdaAndBob
  let postId = 0
  let cdp: CDPSession
  const suggestionName = 'Get notified when Murmur is closed?'

  beforeAll(async () => {
    journey = await startAdaAndBob()
    const post = await call(journey.ada.context.request, 'POST', '/api/posts', { content: 'Tea at four, anyone?' })
    postId = post.id as number
  })

  afterAll(async () => {
    await journey?.close()
  })

  it('offers notifications only after a first notification, asks nothing, and Not now hides it for good', async () => {
    const { page } = journey.bob
    await page.goto('/notifications')
    await page.getByText('No notifications yet').waitFor()
    expect(await page.getByRole('region', { name: suggestionName }).count()).toBe(0)

    // Ada follows Bob back: his first notification.
    await call(journey.ada.context.request, 'POST', '/api/follows', { followingId: journey.bob.id })
    await page.reload()
    const suggestion = page.getByRole('region', { name: suggestionName })
    await suggestion.waitFor()
    // Offered, not asked: the browser's question comes only from "Turn on".
    expect(await page.evaluate(() => Notification.permission)).toBe('default')

    await suggestion.getByRole('button', { name: 'Not now' }).click()
    await suggestion.waitFor({ state: 'detached' })
    await page.reload()
    await page.getByRole('list', { name: 'Notifications' }).waitFor()
    expect(await suggestion.count()).toBe(0)
  })

  it('serves the service worker from the root as JavaScript, revalidated each time', async () => {
    const response = await journey.ada.context.request.get('/sw.js')
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toBe('text/javascript; charset=utf-8')
    expect(response.headers()['cache-control']).toBe('no-cache')
  })

  it('turned on in Settings with the permission granted, registers the service worker and subscribes', async () => {
    const { context, page } = journey.ada
    await page.goto('/settings')
    const card = page.getByRole('region', { name: 'Notifications on this device' })
    const main = card.getByRole('switch', { name: 'Notify me on this device' })
    await main.waitFor()
    expect(await main.getAttribute('aria-checked')).toBe('false')
    // Nothing registered before the member turns it on.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0)

    // The member's "Allow", given through the DevTools protocol (a headless browser shows no question).
    cdp = await context.newCDPSession(page)
    await cdp.send('Browser.grantPermissions', { origin: journey.server.url, permissions: ['notifications'] })
    expect(await page.evaluate(() => Notification.permission)).toBe('granted')

    await main.click()
    const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)
    expect(scriptURL).toBe(`${journey.server.url}/sw.js`)

    const on = card.getByRole('switch', { name: 'Notify me on this device', checked: true })
    const failed = page.getByText('Notifications could not be turned on for this device. Please try again.')
    await on.or(failed).first().waitFor()
    if (await failed.isVisible()) {
      // This Chromium has no push service to subscribe with (Debian's build carries no Google
      // API keys, and the test machine no network): `pushManager.subscribe` rejects, so the
      // subscription's POST cannot be made here (the component tests and tests/api/push.rs
      // cover it). What follows delivers a push to the registered worker all the same.
      console.warn('pushManager.subscribe failed in this Chromium: the subscription POST step is skipped')
      expect(await main.getAttribute('aria-checked')).toBe('false')
      return
    }
    const endpoint = await page.evaluate(
      async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint,
    )
    const saved = await call(context.request, 'GET', '/api/push/subscriptions')
    expect(saved.endpoint).toBe(endpoint)
    expect(saved.policy).toBe('all')
    const saving = page.waitForResponse((r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'POST')
    await card.getByRole('switch', { name: 'Likes' }).click()
    expect((await saving).status()).toBe(200)
    expect(((await call(context.request, 'GET', '/api/push/subscriptions')).alerts as Record<string, boolean>).like).toBe(false)
  })

  it('shows a push the worker is sent, one per tag, and a click opens the post in the open tab', async () => {
    const { context, page } = journey.ada
    const origin = journey.server.url
    const registrations: Registration[] = []
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: Registration[] }) =>
      registrations.push(...event.registrations),
    )
    await cdp.send('ServiceWorker.enable')
    await expect.poll(() => registrations.some((r) => r.scopeURL === `${origin}/` && !r.isDeleted)).toBe(true)
    const { registrationId } = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted)!

    // Bob likes Ada's post; what the server pushes for it, in its exact shape
    // (crates/domain/src/push/store.rs, `Payload`).
    await call(journey.bob.context.request, 'POST', `/api/posts/${postId}/like`)
    const bob = await call(journey.bob.context.request, 'GET', '/api/auth/me')
    const like = {
      title: `${bob.displayName as string} liked your post`,
      body: 'Tea at four, anyone?',
      link: `${origin}/post/${postId}`,
      tag: `like-${postId}`,
    }
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(like) })
    await expect.poll(() => shownNotifications(page)).toEqual([
      { title: like.title, body: like.body, tag: like.tag, data: { link: like.link } },
    ])
    // A second like of the same post replaces the first on the device.
    const another = { ...like, title: 'Grace liked your post' }
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(another) })
    await expect.poll(async () => (await shownNotifications(page)).map((n) => n.title)).toEqual(['Grace liked your post'])

    // No protocol clicks a notification: the worker's own click handler is run on the
    // notification it shows, by the event a click sends it.
    const worker = context.serviceWorkers().find((w) => w.url() === `${origin}/sw.js`) ?? (await context.waitForEvent('serviceworker'))
    expect(page.url()).toBe(`${origin}/settings`)
    await worker.evaluate(async () => {
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration
        dispatchEvent: (event: Event) => boolean
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event
      }
      const [notification] = await scope.registration.getNotifications()
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }))
    })
    // The open tab (not a new one) shows the post.
    await page.waitForURL(like.link)
    await page.getByText('Tea at four, anyone?').first().waitFor()
    expect(context.pages()).toHaveLength(1)
    expect(await shownNotifications(page)).toEqual([])
  })

  it('the settings card reads well at 360 px, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const phone = await darkPage(journey.browser, journey.server, journey.ada, PHONE)
      if (scheme === 'light') await phone.page.emulateMedia({ colorScheme: 'light' })
      await phone.page.addInitScript((theme) => localStorage.setItem('vite-ui-theme', theme), scheme)
      await phone.page.goto('/settings')
      const card = phone.page.getByRole('region', { name: 'Notifications on this device' })
      await card.getByRole('switch', { name: 'Notify me on this device' }).waitFor()
      await card.scrollIntoViewIfNeeded()
      await noHorizontalScroll(phone.page)
      await shoot(phone.page, `settings-card-360-${scheme}`)
      await phone.context.close()
    }
  })
})

// Web Push in a real browser against the real `murmur serve` (fresh SQLite data dir): the quiet
// suggestion on the notifications screen, the Settings switch registering the service worker
// (web/src/service-worker/sw.ts) and subscribing, and a push delivered to that worker through
// the DevTools protocol: the notification it shows, grouped by tag, and its click opening the
// post in the open tab. Screenshots of the settings card (360 px, light and dark) go to /tmp.
// Skips, saying why, when the server binary is missing.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserContext, CDPSession, Page } from 'playwright-core'
import { DESKTOP, PHONE, launchPersistentBrowser } from './support/browser'
import { watchContext } from './support/guard'
import { type AdaAndBob, call, darkPage, noHorizontalScroll, startAdaAndBob } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the Web Push journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const SHOTS = '/tmp/murmur-push-screenshots'

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
  // Ada's own browser: Chrome offers no Push API in an incognito context (every context but a
  // profile's), and says so in the console.
  let profile = ''
  let adas: BrowserContext
  let page: Page
  let cdp: CDPSession
  const suggestionName = 'Get notified when Murmur is closed?'

  beforeAll(async () => {
    journey = await startAdaAndBob()
    const post = await call(journey.ada.context.request, 'POST', '/api/posts', { content: 'Tea at four, anyone?' })
    postId = post.id as number
    profile = mkdtempSync(join(tmpdir(), 'murmur-push-profile-'))
    adas = await launchPersistentBrowser(profile)
    await adas.addCookies(await journey.ada.context.cookies())
    page = adas.pages()[0] ?? (await adas.newPage())
  })

  afterAll(async () => {
    await adas?.close()
    if (profile) rmSync(profile, { recursive: true, force: true })
    await journey?.close()
  })

  it('offers notifications only after a first notification, asks nothing, and Not now hides it for good', async () => {
    // A context that was never asked (the journeys' contexts deny every permission they do not grant).
    const context = await journey.browser.newContext({ baseURL: journey.server.url, viewport: DESKTOP })
    watchContext(context)
    await context.addCookies(await journey.bob.context.cookies())
    const page = await context.newPage()
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
    await context.close()
  })

  it('serves the service worker from the root as JavaScript, revalidated each time', async () => {
    const response = await journey.ada.context.request.get('/sw.js')
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toBe('text/javascript; charset=utf-8')
    expect(response.headers()['cache-control']).toBe('no-cache')
  })

  it('turned on in Settings with the permission granted, registers the service worker and subscribes', async () => {
    const { context } = journey.ada
    await page.goto(`${journey.server.url}/settings`)
    const card = page.getByRole('region', { name: 'Notifications on this device' })
    const main = card.getByRole('switch', { name: 'Notify me on this device' })
    await main.waitFor()
    expect(await main.getAttribute('aria-checked')).toBe('false')
    // Nothing registered before the member turns it on.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0)

    // The member's "Allow", given through the DevTools protocol (a headless browser shows no question).
    cdp = await adas.newCDPSession(page)
    await cdp.send('Browser.grantPermissions', { origin: journey.server.url, permissions: ['notifications'] })
    expect(await page.evaluate(() => Notification.permission)).toBe('granted')

    await main.click()
    const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)
    expect(scriptURL).toBe(`${journey.server.url}/sw.js`)

    const on = card.getByRole('switch', { name: 'Notify me on this device', checked: true })
    const failed = page.getByText("This browser has no push service it can reach, so it can't get notifications from Murmur.", {
      exact: true,
    })
    await on.or(failed).first().waitFor({ timeout: 30_000 })
    if (await failed.isVisible()) {
      // This Chromium cannot reach a push service (Debian's build, no network here):
      // `pushManager.subscribe` never answers, and the app gives up after 15 s and says so. The
      // subscription's POST cannot be made here (the component tests and tests/api/push.rs
      // cover it); what follows delivers a push to the registered worker all the same.
      console.warn('pushManager.subscribe failed in this Chromium: the subscription POST step is skipped')
      expect(await main.getAttribute('aria-checked')).toBe('false')
      return
    }
    const endpoint = await page.evaluate(
      async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint,
    )
    // (journey.ada's context holds the same session as Ada's own browser.)
    const saved = await call(context.request, 'GET', '/api/push/subscriptions')
    expect(saved.endpoint).toBe(endpoint)
    expect(saved.policy).toBe('all')
    const saving = page.waitForResponse((r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'POST')
    await card.getByRole('switch', { name: 'Likes' }).click()
    expect((await saving).status()).toBe(200)
    expect(((await call(context.request, 'GET', '/api/push/subscriptions')).alerts as Record<string, boolean>).like).toBe(false)
  })

  it('shows a push the worker is sent, one per tag, and a click opens the post in the open tab', async () => {
    const origin = journey.server.url
    const registrations: Registration[] = []
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: Registration[] }) =>
      registrations.push(...event.registrations),
    )
    await cdp.send('ServiceWorker.enable')
    await expect.poll(() => registrations.some((r) => r.scopeURL === `${origin}/` && !r.isDeleted), { timeout: 10_000 }).toBe(true)
    const { registrationId } = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted)!

    /**
     * Delivers `push` to the worker until it shows it. The DevTools protocol starts a stopped
     * worker for a push, and on a busy machine a delivery was once lost while the worker
     * started; each try waits 5 s, and a repeat replaces the first (same tag).
     */
    async function deliverUntilShown(push: { title: string; tag: string }) {
      const shown = async () => (await shownNotifications(page)).some((n) => n.title === push.title && n.tag === push.tag)
      for (let attempt = 1; attempt <= 4; attempt++) {
        await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(push) })
        const deadline = Date.now() + 5_000
        while (Date.now() < deadline) {
          if (await shown()) return
          await page.waitForTimeout(100)
        }
        console.warn(`push not shown 5 s after delivery ${attempt}; registrations seen: ${JSON.stringify(registrations)}`)
      }
      throw new Error(`the worker never showed "${push.title}"`)
    }

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
    await deliverUntilShown(like)
    expect(await shownNotifications(page)).toEqual([
      { title: like.title, body: like.body, tag: like.tag, data: { link: like.link } },
    ])
    // A second like of the same post replaces the first on the device.
    const another = { ...like, title: 'Grace liked your post' }
    await deliverUntilShown(another)
    expect((await shownNotifications(page)).map((n) => n.title)).toEqual(['Grace liked your post'])

    // No protocol clicks a notification: the worker's own click handler is run on the
    // notification it shows, by the event a click sends it.
    const worker = adas.serviceWorkers().find((w) => w.url() === `${origin}/sw.js`) ?? (await adas.waitForEvent('serviceworker'))
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
    expect(adas.pages()).toHaveLength(1)
    expect(await shownNotifications(page)).toEqual([])
  })

  it('the settings card reads well at 360 px, light and dark, off and on', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      for (const state of ['off', 'on'] as const) {
        const phone = await darkPage(journey.browser, journey.server, journey.ada, PHONE)
        await phone.page.addInitScript((theme) => localStorage.setItem('vite-ui-theme', theme), scheme)
        if (state === 'on') await pretendSubscribed(phone.page)
        await phone.page.goto('/settings')
        const card = phone.page.getByRole('region', { name: 'Notifications on this device' })
        await card.getByRole('switch', { name: 'Notify me on this device', checked: state === 'on' }).waitFor()
        await noHorizontalScroll(phone.page)
        mkdirSync(SHOTS, { recursive: true })
        await phone.page.evaluate(() => document.fonts.ready)
        await card.screenshot({ path: `${SHOTS}/settings-card-360-${scheme}-${state}.png` })
        await phone.context.close()
      }
    }
  })
})

/**
 * Only to look at the card when on (this Chromium cannot subscribe): the browser is made to say
 * it allowed notifications and holds a subscription, and the server's answer for it is given here.
 */
async function pretendSubscribed(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(Notification, 'permission', { get: () => 'granted' })
    const registration = { pushManager: { getSubscription: () => Promise.resolve({ endpoint: 'https://push.example/1' }) } }
    navigator.serviceWorker.getRegistration = () => Promise.resolve(registration as unknown as ServiceWorkerRegistration)
  })
  await page.route('**/api/push/subscriptions', (route) =>
    route.fulfill({
      json: {
        endpoint: 'https://push.example/1',
        alerts: { reply: true, mention: true, like: false, repost: true, follow: true, poll: false },
        policy: 'followed',
        serverKey: 'B',
        createdAt: '2026-11-01T10:00:00Z',
      },
    }),
  )
}

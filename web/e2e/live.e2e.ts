// Live events in a real browser against the real `murmur serve` (fresh SQLite data dir): what one
// member does in their browser reaches another member's open page over GET /api/events, with no
// reload: the unread badge and the tab's title, new notifications on top of the list (the
// reader's place kept), "Show 1 new post" on Home, and a thread's like count.
// Skips, saying why, when the server binary is missing.
//
// The people: Ada signs up first (the instance's admin) and invites Grace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import {
  DESKTOP,
  PHONE,
  SCREENSHOT_DIR,
  launchBrowser,
  screenshot,
} from './support/browser'
import { call, darkPage as darkPageOf, expectAccessible, noHorizontalScroll, signUp as signUpMember, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the live journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

/** How soon an event must show on the other member's page (issue 27: "within a second"). */
const LIVE_MS = 1_000

/** Opens `path` and resolves once the page's live stream is open (its answer's headers are in). */
async function openLive(page: Page, path: string, stream: RegExp = /\/api\/events(\?|$)/) {
  const opened = page.waitForResponse((response) => stream.test(new URL(response.url()).pathname + new URL(response.url()).search))
  await page.goto(path)
  expect((await opened).status()).toBe(200)
}

/** Marks the document, so a test can tell it was not reloaded. */
async function markDocument(page: Page) {
  await page.evaluate(() => document.documentElement.setAttribute('data-live-test', 'same document'))
}

async function expectSameDocument(page: Page) {
  expect(await page.evaluate(() => document.documentElement.getAttribute('data-live-test'))).toBe('same document')
}

/** Polls `check` every 25 ms until it holds; resolves to the milliseconds it took. */
async function msUntil(check: () => Promise<boolean>, timeout = 10_000): Promise<number> {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > timeout) throw new Error(`not within ${timeout} ms`)
    await new Promise((r) => setTimeout(r, 25))
  }
  return Date.now() - start
}

describe.skipIf(!hasMurmur)('live events in a browser', () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member
  let grace: Member
  let adasPostId = 0

  const signUp = (email: string, inviteCode: string) => signUpMember(browser, server, email, inviteCode)
  const darkPage = (member: Member, viewport: typeof DESKTOP) => darkPageOf(browser, server, member, viewport)

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
  })

  afterAll(async () => {
    for (const member of [ada, grace]) await member?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it('members join, and Ada posts', async () => {
    ada = await signUp('ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    const invite = await call(ada.context.request, 'POST', '/api/invites')
    grace = await signUp('grace@example.com', invite.code as string)
    // Signing up followed Ada; Grace unfollows so Ada's notifications start empty (the follow's is withdrawn).
    await call(grace.context.request, 'DELETE', `/api/follows/${ada.id}`)
    const post = await call(ada.context.request, 'POST', '/api/posts', { content: 'Notes on the Analytical Engine, part one.' })
    adasPostId = post.id as number
  })

  it("a like from another browser changes Ada's badge and title within a second, without a reload", async () => {
    const { page } = ada
    await openLive(page, '/')
    await markDocument(page)
    const notifications = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Notifications/ })
    expect(await page.title()).toBe('Murmur')
    expect(await notifications.textContent()).toBe('Notifications')

    await call(grace.context.request, 'POST', `/api/posts/${adasPostId}/like`)
    const took = await msUntil(async () => (await page.title()) === '(1) Murmur')
    console.log(`the like reached Ada's title in ${took} ms`)
    expect(took).toBeLessThanOrEqual(LIVE_MS)
    expect(await notifications.textContent()).toBe('Notifications1 unread')
    await expectSameDocument(page)
  })

  it('new notifications arrive on top of the open list, none twice, and the reader keeps her place', async () => {
    const { page } = ada
    // Enough notifications to scroll: Grace likes and reposts five more of Ada's posts.
    for (let i = 2; i <= 6; i++) {
      const post = await call(ada.context.request, 'POST', '/api/posts', { content: `Notes, part ${i}.` })
      await call(grace.context.request, 'POST', `/api/posts/${post.id as number}/like`)
      await call(grace.context.request, 'POST', '/api/posts', { content: '♻️', repostOfId: post.id })
    }
    await openLive(page, '/notifications')
    await markDocument(page)
    const list = page.getByRole('list', { name: 'Notifications' })
    const items = list.getByRole('listitem')
    await items.nth(10).waitFor()
    expect(await items.count()).toBe(11)

    // Ada reads the fifth notification at the top of her screen, under the title bar.
    await items.nth(4).evaluate((item) => window.scrollTo(0, item.getBoundingClientRect().top + window.scrollY - 60))
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
    const reading = items.nth(4)
    const readingText = await reading.textContent()
    const topBefore = (await reading.boundingBox())?.y

    await call(grace.context.request, 'POST', '/api/follows', { followingId: ada.id })
    await list.getByRole('button', { name: /followed you/ }).waitFor()
    expect(await items.count()).toBe(12)
    // What the open list shows is seen: the title counts none of it.
    await expect.poll(() => page.title()).toBe('Murmur')
    // The same item (its unread mark may have gone: what the open list shows is seen).
    const unmarked = (text: string | null) => text?.replace(' (unread)', '')
    expect(unmarked(await items.nth(5).textContent())).toBe(unmarked(readingText))
    expect((await items.nth(5).boundingBox())?.y).toBe(topBefore)
    await expectSameDocument(page)
  })

  it('"Show 1 new post" appears on Home when a followed member posts, and brings the post in', async () => {
    const { page } = ada
    await call(ada.context.request, 'POST', '/api/follows', { followingId: grace.id })
    await openLive(page, '/')
    await markDocument(page)
    await page.getByRole('article').first().waitFor()
    expect(await page.getByRole('button', { name: /new posts?$/ }).count()).toBe(0)

    await call(grace.context.request, 'POST', '/api/posts', { content: 'Fresh from Grace: the first compiler.' })
    const show = page.getByRole('button', { name: 'Show 1 new post' })
    await show.waitFor()
    expect(await page.getByText('Fresh from Grace').count()).toBe(0)
    await screenshot(page, 'live-desktop-new-posts')
    await expectAccessible(page, 'Home with new posts')

    await show.click()
    await page.getByRole('article').first().filter({ hasText: 'Fresh from Grace: the first compiler.' }).waitFor()
    expect(await show.count()).toBe(0)
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    await expectSameDocument(page)
  })

  it("on Ada's open thread, Grace's like changes the like count live", async () => {
    const post = await call(ada.context.request, 'POST', '/api/posts', { content: 'A thread about Bernoulli numbers.' })
    const postId = post.id as number
    const { page } = ada
    await openLive(page, `/post/${postId}`, new RegExp(`/api/events\\?post=${postId}(&|$)`))
    await markDocument(page)
    const card = page.getByRole('article').filter({ hasText: 'A thread about Bernoulli numbers.' })
    await card.getByRole('button', { name: 'Like (0)' }).waitFor()

    await call(grace.context.request, 'POST', `/api/posts/${postId}/like`)
    const took = await msUntil(async () => (await card.getByRole('button', { name: 'Like (1)' }).count()) === 1)
    console.log(`the like reached Ada's thread in ${took} ms`)
    expect(took).toBeLessThanOrEqual(LIVE_MS)
    await expectSameDocument(page)
  })

  it('the new posts button in the dark theme, at desktop and on a 360 px phone', async () => {
    for (const [viewport, name] of [
      [DESKTOP, 'live-desktop-dark-new-posts'],
      [PHONE, 'live-phone-dark-new-posts'],
    ] as const) {
      const { context, page } = await darkPage(ada, viewport)
      await openLive(page, '/')
      await page.getByRole('article').first().waitFor()
      await call(grace.context.request, 'POST', '/api/posts', { content: `Another from Grace, for the ${name} picture.` })
      await call(grace.context.request, 'POST', '/api/posts', { content: 'And one more, so it says posts.' })
      const show = page.getByRole('button', { name: 'Show 2 new posts' })
      await show.waitFor()
      const box = await show.boundingBox()
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true)
      await noHorizontalScroll(page)
      await screenshot(page, name)
      await expectAccessible(page, `${name}`)
      // Scrolled down, the button stays in sight below the title bar.
      await page.evaluate(() => window.scrollTo(0, 400))
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400)
      const titleBar = await page.getByRole('heading', { name: 'Home', exact: true }).boundingBox()
      const scrolled = await show.boundingBox()
      expect(titleBar && scrolled && scrolled.y > titleBar.y + titleBar.height && scrolled.y < viewport.height).toBe(true)
      await screenshot(page, `${name}-scrolled`)
      await context.close()
    }
  })
})

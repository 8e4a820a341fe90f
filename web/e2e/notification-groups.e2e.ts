// Grouped notifications in a real browser against the real `murmur serve`: Bob follows Ada, Bob,
// Cyd and Dan like Ada's post and Bob replies to it; Ada's Notifications show the three likes as
// one item ("Dan and 2 others liked your post", three pictures), the badge counts it once, the
// Mentions tab shows the reply alone, and opening the group reads all of it. Screenshots at 360 and
// 1280 px, light and dark, go to web/test-results/screenshots (notification-groups-…). Skips,
// saying why, when the server binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DESKTOP, PHONE, newContext, screenshot } from './support/browser'
import {
  call,
  darkPage,
  expectAccessible,
  noHorizontalScroll,
  signUp,
  startAdaAndBob,
  type AdaAndBob,
  type Member,
} from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the grouped notifications journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

/** A screenshot under test-results/screenshots, named for this area. */
const shot = (page: Page, name: string) => screenshot(page, `notification-groups-${name}`)

const unreadCount = async (member: Member) =>
  (await call(member.context.request, 'GET', '/api/notifications/unread-count')).count as number

describe.skipIf(!hasMurmur)('grouped notifications in a browser', () => {
  let net: AdaAndBob
  let cyd: Member
  let dan: Member
  let postId: number

  beforeAll(async () => {
    net = await startAdaAndBob()
    cyd = await signUp(net.browser, net.server, 'cyd@example.com', await net.server.createInvite())
    dan = await signUp(net.browser, net.server, 'dan@example.com', await net.server.createInvite())
    const post = await call(net.ada.context.request, 'POST', '/api/posts', { content: 'The tide tables are out' })
    postId = post.id as number
    for (const member of [net.bob, cyd, dan]) await call(member.context.request, 'POST', `/api/posts/${postId}/like`)
    await call(net.bob.context.request, 'POST', '/api/posts', { content: 'Low tide at six, then', replyToId: postId })
  })

  afterAll(async () => {
    await Promise.all([cyd, dan].map((member) => member?.context.close()))
    await net?.close()
  })

  it('shows the three likes as one item, counted once, and opening the screen sees them all', async () => {
    const { page } = net.ada
    // The reply, the likes and Bob's follow: the group counts once.
    expect(await unreadCount(net.ada)).toBe(3)
    await page.goto('/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Notifications\s*3 unread/ }).waitFor()
    await page.goto('/notifications')
    const list = page.getByRole('list', { name: 'Notifications' })
    const group = list.getByRole('button', { name: /and 2 others liked your post/ })
    await group.waitFor()
    // The reply, the likes and Bob's follow.
    expect(await list.getByRole('button').count()).toBe(3)
    expect(await group.locator('span[aria-hidden="true"]').filter({ hasText: /^\w$/ }).count()).toBe(3)
    await expect.poll(() => unreadCount(net.ada)).toBe(0)
    await expectAccessible(page, 'Notifications with a group')
    await shot(page, 'desktop-light-all')
  })

  it('the Mentions tab shows the reply alone', async () => {
    const { page } = net.ada
    await page.getByRole('tab', { name: 'Mentions' }).click()
    const list = page.getByRole('list', { name: 'Notifications' })
    await list.getByRole('button', { name: /replied to your post/ }).waitFor()
    expect(await list.getByRole('button').count()).toBe(1)
    await shot(page, 'desktop-light-mentions')
    await page.getByRole('tab', { name: 'All' }).click()
    await list.getByRole('button', { name: /and 2 others liked your post/ }).waitFor()
  })

  it('opening the group opens the post, and the group stays one item', async () => {
    const { page } = net.ada
    await page.getByRole('button', { name: /and 2 others liked your post/ }).click()
    await page.waitForURL(`**/post/${postId}`)
    await page.goBack()
    const list = page.getByRole('list', { name: 'Notifications' })
    await list.getByRole('button', { name: /and 2 others liked your post/ }).waitFor()
    expect(await list.getByRole('button').count()).toBe(3)
    expect(await unreadCount(net.ada)).toBe(0)
  })

  it('reads well at 360 px and in the dark theme', async () => {
    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { context, page } = await darkPage(net.browser, net.server, net.ada, viewport)
      await page.goto('/notifications')
      await page.getByRole('button', { name: /and 2 others liked your post/ }).waitFor()
      await noHorizontalScroll(page)
      await expectAccessible(page, `Notifications, ${name}, dark`)
      await shot(page, `${name}-dark-all`)
      await context.close()
    }
    const phone = await newContext(net.browser, net.server.url, PHONE)
    await phone.addCookies(await net.ada.context.cookies())
    const page = await phone.newPage()
    await page.goto('/notifications')
    await page.getByRole('button', { name: /and 2 others liked your post/ }).waitFor()
    await noHorizontalScroll(page)
    await shot(page, 'phone-light-all')
    await phone.close()
  })
})

// Quote posts in a real browser against the real `murmur serve`: Bob, who follows Ada, quotes her
// post from its card's repost menu (the composer shows her post under his text), and sees his quote
// in his feed with her post in a box; Ada reads "Bob quoted your post", takes her post out of his
// quote (which then shows "Removed by the author"), and turns quoting of her post off. Screenshots
// at 360 and 1280 px, light and dark, go to web/test-results/screenshots (quotes-…). Skips, saying
// why, when the server binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { DESKTOP, PHONE, screenshot } from './support/browser'
import { call, darkPage, expectAccessible, noHorizontalScroll, startAdaAndBob, type AdaAndBob } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the quote posts journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const ORIGINAL = 'The harbour lights are back on tonight'
const QUOTE = 'Worth the walk down to see them'

/** A screenshot under test-results/screenshots, named for this area. */
const shot = (page: Page, name: string) => screenshot(page, `quotes-${name}`)

/** Bob's quote's card on a page. */
const quoteCard = (page: Page): Locator => page.getByRole('article').filter({ hasText: QUOTE }).first()

describe.skipIf(!hasMurmur)('quote posts in a browser', () => {
  let net: AdaAndBob
  let originalId = 0

  beforeAll(async () => {
    net = await startAdaAndBob()
    const written = (await call(net.ada.context.request, 'POST', '/api/posts', { content: ORIGINAL })) as { id: number }
    originalId = written.id
  })

  afterAll(async () => {
    await net?.close()
  })

  it("Bob quotes Ada's post from its repost menu", async () => {
    const { page } = net.bob
    await page.goto('/')
    const adas = page.getByRole('article').filter({ hasText: ORIGINAL }).first()
    const repost = adas.getByRole('button', { name: 'Repost (0)' })
    await repost.waitFor()
    expect(await repost.getAttribute('aria-haspopup')).toBe('menu')
    await repost.click()
    await page.getByRole('menuitem', { name: 'Repost' }).waitFor()
    await page.getByRole('menuitem', { name: 'Quote' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create Post' })
    await dialog.getByText(ORIGINAL).waitFor()
    await dialog.getByRole('button', { name: 'Remove quote' }).waitFor()
    await dialog.getByRole('textbox', { name: "What's happening?" }).fill(QUOTE)
    await shot(page, 'desktop-light-composer')
    await dialog.getByRole('button', { name: 'Post', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })
    const mine = (await call(net.bob.context.request, 'GET', `/api/users/${net.bob.username}/posts`)) as unknown as {
      content: string
      quoteOfId: number | null
    }[]
    expect(mine[0]).toMatchObject({ content: QUOTE, quoteOfId: originalId })
  })

  it('the quote shows Ada’s post in a box that links to her thread', async () => {
    const { page } = net.bob
    await page.goto('/')
    const card = quoteCard(page)
    const box = card.getByRole('link', { name: new RegExp(`Quoted post:.*${ORIGINAL}`) })
    await box.waitFor()
    expect(await box.getAttribute('href')).toBe(`/post/${originalId}`)
    await expectAccessible(page, 'Home with a quote')
    await shot(page, 'desktop-light-feed')
  })

  it('reads well at 360 px and in the dark theme', async () => {
    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { context, page } = await darkPage(net.browser, net.server, net.bob, viewport)
      await page.goto('/')
      await quoteCard(page).getByText(ORIGINAL).waitFor()
      await noHorizontalScroll(page)
      await expectAccessible(page, `Home with a quote, ${name}, dark`)
      await shot(page, `${name}-dark-feed`)
      await context.close()
    }
    const { page } = net.bob
    await page.setViewportSize(PHONE)
    await page.goto('/')
    await quoteCard(page).getByText(ORIGINAL).waitFor()
    await noHorizontalScroll(page)
    await shot(page, 'phone-light-feed')
    await page.setViewportSize(DESKTOP)
  })

  it('Ada reads "Bob quoted your post"', async () => {
    const { page } = net.ada
    await page.goto('/notifications')
    const item = page.getByText('quoted your post').first()
    await item.waitFor()
    expect(await page.getByRole('main').textContent()).toContain(QUOTE)
    await shot(page, 'desktop-light-notification')
  })

  it("Ada takes her post out of Bob's quote, which then shows Removed by the author", async () => {
    const { page } = net.ada
    await page.goto(`/profile/${net.bob.username}`)
    const card = quoteCard(page)
    await card.getByText(ORIGINAL).waitFor()
    await card.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Remove my post from this quote' }).click()
    await card.getByText('Removed by the author').waitFor()
    expect(await card.getByText(ORIGINAL).count()).toBe(0)
    await shot(page, 'desktop-light-detached')
    // Bob sees it so too, at 360 px in the dark.
    const { context, page: bobs } = await darkPage(net.browser, net.server, net.bob, PHONE)
    await bobs.goto('/')
    await quoteCard(bobs).getByText('Removed by the author').waitFor()
    await shot(bobs, 'phone-dark-detached')
    await context.close()
  })

  it('Ada turns quoting of her post off from its repost menu', async () => {
    const { page } = net.ada
    await page.goto(`/profile/${net.ada.username}`)
    const card = page.getByRole('article').filter({ hasText: ORIGINAL }).first()
    await card.getByRole('button', { name: /^Repost/ }).click()
    await page.getByRole('menuitem', { name: 'Turn off quoting' }).click()
    await expect
      .poll(async () => ((await call(net.ada.context.request, 'GET', `/api/posts/${originalId}/thread`)) as { post: { quotesAllowed: boolean } }).post.quotesAllowed)
      .toBe(false)
    // Bob's menu now says quoting is off.
    const { page: bobs } = net.bob
    await bobs.goto(`/profile/${net.ada.username}`)
    await bobs.getByRole('article').filter({ hasText: ORIGINAL }).first().getByRole('button', { name: /^Repost/ }).click()
    const off = bobs.getByRole('menuitem', { name: 'Quoting is turned off' })
    await off.waitFor()
    expect(await off.getAttribute('aria-disabled')).toBe('true')
    await shot(bobs, 'desktop-light-quoting-off')
    await bobs.keyboard.press('Escape')
  })
})

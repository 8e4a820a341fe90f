// Followed tags in a real browser against the real `murmur serve`: Ada, who does not follow Bob,
// follows #rust from its tag page; Bob's new #rust post reaches her Home marked "# rust"; Settings
// lists the tag, and Unfollow there takes it out. Screenshots at 360 and 1280 px, light and dark,
// go to web/test-results/screenshots (followed-tags-…). Skips, saying why, when the server binary
// is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { DESKTOP, PHONE, screenshot } from './support/browser'
import { call, darkPage, expectAccessible, noHorizontalScroll, startAdaAndBob, type AdaAndBob } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the followed tags journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const TEXT = 'Ferris learned a new trick today #rust'

/** A screenshot under test-results/screenshots, named for this area. */
const shot = (page: Page, name: string) => screenshot(page, `followed-tags-${name}`)

/** Bob's tagged card on a page. */
const bobsCard = (page: Page): Locator => page.getByRole('article').filter({ hasText: 'Ferris learned' }).first()

describe.skipIf(!hasMurmur)('followed tags in a browser', () => {
  let net: AdaAndBob

  beforeAll(async () => {
    net = await startAdaAndBob()
  })

  afterAll(async () => {
    await net?.close()
  })

  it('Ada follows #rust from its tag page', async () => {
    const { page } = net.ada
    await page.goto('/tag/rust')
    const follow = page.getByRole('button', { name: 'Follow #rust' })
    await follow.waitFor()
    expect(await follow.getAttribute('aria-pressed')).toBe('false')
    await follow.click()
    const unfollow = page.getByRole('button', { name: 'Following #rust' })
    await unfollow.waitFor()
    expect(await unfollow.getAttribute('aria-pressed')).toBe('true')
    expect(await unfollow.textContent()).toBe('Following #rust')
    await expectAccessible(page, 'A followed tag')
    await shot(page, 'desktop-light-tag')
    const followed = (await call(net.ada.context.request, 'GET', '/api/followed-tags')) as unknown as { name: string }[]
    expect(followed.map((tag) => tag.name)).toEqual(['rust'])
  })

  it("Bob's new #rust post reaches Ada's Home, marked with the tag", async () => {
    await call(net.bob.context.request, 'POST', '/api/posts', { content: TEXT })
    const { page } = net.ada
    await page.goto('/')
    const card = bobsCard(page)
    await card.waitFor()
    const mark = card.getByRole('link', { name: 'Followed tag #rust' })
    await mark.waitFor()
    expect(await mark.textContent()).toBe('rust')
    await expectAccessible(page, 'Home with a followed tag post')
    await shot(page, 'desktop-light-home')
    // Bob, who wrote it, sees his own post unmarked.
    await net.bob.page.goto('/')
    await bobsCard(net.bob.page).waitFor()
    expect(await bobsCard(net.bob.page).getByRole('link', { name: 'Followed tag #rust' }).count()).toBe(0)
  })

  it('reads well at 360 px and in the dark theme', async () => {
    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { context, page } = await darkPage(net.browser, net.server, net.ada, viewport)
      await page.goto('/')
      await bobsCard(page).getByRole('link', { name: 'Followed tag #rust' }).waitFor()
      await noHorizontalScroll(page)
      await expectAccessible(page, `Home, ${name}, dark`)
      await shot(page, `${name}-dark-home`)
      await page.goto('/tag/rust')
      await page.getByRole('button', { name: 'Following #rust' }).waitFor()
      await noHorizontalScroll(page)
      await shot(page, `${name}-dark-tag`)
      await page.goto('/settings')
      await page.getByRole('region', { name: 'Followed tags' }).scrollIntoViewIfNeeded()
      await page.getByRole('button', { name: 'Unfollow #rust' }).waitFor()
      await noHorizontalScroll(page)
      await shot(page, `${name}-dark-settings`)
      await context.close()
    }
    const { page } = net.ada
    await page.setViewportSize(PHONE)
    await page.goto('/')
    await bobsCard(page).getByRole('link', { name: 'Followed tag #rust' }).waitFor()
    await noHorizontalScroll(page)
    await shot(page, 'phone-light-home')
    await page.setViewportSize(DESKTOP)
  })

  it('Settings lists the tag, and Unfollow there takes its posts out of Home', async () => {
    const { page } = net.ada
    await page.goto('/settings')
    const region = page.getByRole('region', { name: 'Followed tags' })
    await region.getByRole('link', { name: 'rust' }).waitFor()
    await region.scrollIntoViewIfNeeded()
    await expectAccessible(page, 'Settings with a followed tag')
    await shot(page, 'desktop-light-settings')
    await region.getByRole('button', { name: 'Unfollow #rust' }).click()
    await region.getByText("You don't follow any tags.", { exact: false }).waitFor()
    await expect.poll(async () => ((await call(net.ada.context.request, 'GET', '/api/followed-tags')) as unknown as unknown[]).length).toBe(0)
    await page.goto('/')
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor()
    await expect.poll(() => bobsCard(page).count()).toBe(0)
  })
})

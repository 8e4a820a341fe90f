// Content warnings in a real browser against the real `murmur serve`: Ada writes a post with a
// warning and a picture from Home's composer; Bob, who follows her, sees it behind its warning
// (text hidden, picture blurred), shows it, replies (the reply starts with Ada's warning), and
// turns on "Always expand posts with content warnings" in Settings, after which it shows whole.
// Screenshots at 360 and 1280 px, light and dark, go to web/test-results/screenshots
// (content-warnings-…). Skips, saying why, when the server binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { DESKTOP, PHONE, newContext, screenshot } from './support/browser'
import { call, darkPage, expectAccessible, noHorizontalScroll, startAdaAndBob, type AdaAndBob } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'
import { makePng } from './support/png.mjs'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the content warnings journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const WARNING = 'Spoilers for the season finale'
const TEXT = 'The lighthouse keeper was the narrator all along'

/** A screenshot under test-results/screenshots, named for this area. */
const shot = (page: Page, name: string) => screenshot(page, `content-warnings-${name}`)

/** Ada's card on a page. */
const adasCard = (page: Page): Locator => page.getByRole('article').filter({ hasText: WARNING }).first()

describe.skipIf(!hasMurmur)('content warnings in a browser', () => {
  let net: AdaAndBob

  beforeAll(async () => {
    net = await startAdaAndBob()
  })

  afterAll(async () => {
    await net?.close()
  })

  it('Ada writes a post with a warning and a picture from Home', async () => {
    const { page } = net.ada
    await page.goto('/')
    await page.getByRole('button', { name: 'Add content warning' }).first().click()
    await page.getByRole('textbox', { name: 'Content warning' }).fill(WARNING)
    await page.getByText(`${WARNING.length}/100`).waitFor()
    await page.getByRole('textbox', { name: "What's happening?" }).fill(TEXT)
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Add images' }).first().click()
    await (await chooser).setFiles([{ name: 'tower.png', mimeType: 'image/png', buffer: makePng(480, 320, 150) }])
    await page.getByRole('img', { name: 'Attached image 1' }).waitFor()
    await page.getByRole('button', { name: 'Post', exact: true }).click()
    // The reminder about the picture's description: this journey is about the warning.
    await page.getByRole('button', { name: 'Post anyway' }).click()
    await page.getByText('Post created').first().waitFor()
    await page.goto(`/profile/${net.ada.username}`)
    await adasCard(page).getByRole('button', { name: 'Show post' }).waitFor()
    const posts = (await call(net.ada.context.request, 'GET', `/api/users/${net.ada.username}/posts`)) as unknown as {
      spoilerText: string | null
    }[]
    expect(posts[0]?.spoilerText).toBe(WARNING)
  })

  it('Bob sees it behind its warning, picture blurred, and shows it', async () => {
    const { page } = net.bob
    await page.goto('/')
    const card = adasCard(page)
    const show = card.getByRole('button', { name: 'Show post' })
    await show.waitFor()
    expect(await show.getAttribute('aria-expanded')).toBe('false')
    expect(await card.getByText(TEXT).isVisible()).toBe(false)
    const picture = card.locator('[data-blurred] img')
    await picture.waitFor()
    expect(await picture.evaluate((img) => getComputedStyle(img).filter)).toContain('blur')
    await expectAccessible(page, 'Home with a post behind its warning')
    await shot(page, 'desktop-light-collapsed')

    await show.click()
    await card.getByText(TEXT).waitFor()
    expect(await card.getByRole('button', { name: 'Hide post' }).getAttribute('aria-expanded')).toBe('true')
    expect(await card.locator('[data-blurred]').count()).toBe(0)
    await shot(page, 'desktop-light-expanded')
  })

  it("Bob's reply starts with Ada's warning", async () => {
    const { page } = net.bob
    const card = adasCard(page)
    await card.getByRole('button', { name: /^Reply/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Create Post' })
    const field = dialog.getByRole('textbox', { name: 'Content warning' })
    await field.waitFor()
    expect(await field.inputValue()).toBe(WARNING)
    await dialog.getByRole('textbox', { name: 'Post your reply' }).fill('I never saw it coming')
    await shot(page, 'desktop-light-reply')
    await dialog.getByRole('button', { name: 'Reply', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })
    const mine = (await call(net.bob.context.request, 'GET', `/api/users/${net.bob.username}/replies`)) as unknown as {
      content: string
      spoilerText: string | null
    }[]
    expect(mine[0]).toMatchObject({ content: 'I never saw it coming', spoilerText: WARNING })
  })

  it('reads well at 360 px and in the dark theme, collapsed and shown', async () => {
    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { context, page } = await darkPage(net.browser, net.server, net.bob, viewport)
      await page.goto('/')
      const card = adasCard(page)
      await card.getByRole('button', { name: 'Show post' }).waitFor()
      await noHorizontalScroll(page)
      await expectAccessible(page, `Home, ${name}, dark`)
      await shot(page, `${name}-dark-collapsed`)
      await card.getByRole('button', { name: 'Show post' }).click()
      await card.getByText(TEXT).waitFor()
      await shot(page, `${name}-dark-expanded`)
      await context.close()
    }
    const phone = await newContext(net.browser, net.server.url, PHONE)
    await phone.addCookies(await net.bob.context.cookies())
    const page = await phone.newPage()
    await page.goto('/')
    await adasCard(page).getByRole('button', { name: 'Show post' }).waitFor()
    await noHorizontalScroll(page)
    await shot(page, 'phone-light-collapsed')
    await page.getByRole('button', { name: /^Reply/ }).first().click()
    await page.getByRole('dialog', { name: 'Create Post' }).getByRole('textbox', { name: 'Content warning' }).waitFor()
    await shot(page, 'phone-light-reply')
    await phone.close()
  })

  it('with "Always expand posts with content warnings" on, Bob sees it whole', async () => {
    const { page } = net.bob
    await page.goto('/settings')
    const toggle = page.getByRole('switch', { name: 'Always expand posts with content warnings' })
    // The switch shows what the server kept, so it turns once the change is saved.
    await toggle.click()
    await expect.poll(async () => (await call(net.bob.context.request, 'GET', '/api/auth/me')).expandContentWarnings).toBe(true)
    await expect.poll(() => toggle.isChecked()).toBe(true)
    await toggle.scrollIntoViewIfNeeded()
    await shot(page, 'desktop-light-setting')
    await page.goto('/')
    const card = adasCard(page)
    await card.getByText(TEXT).waitFor()
    expect(await card.getByRole('button', { name: 'Hide post' }).getAttribute('aria-expanded')).toBe('true')
    expect(await card.locator('[data-blurred]').count()).toBe(0)
    await shot(page, 'desktop-light-always-expanded')
  })
})

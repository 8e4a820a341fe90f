// Nothing typed is lost, in a real browser against the real `murmur serve`: Home's draft (text and
// a picture) comes back after navigating away and after a reload; closing the Create Post dialog
// with something written asks "Discard post?"; Ctrl+Enter posts, and focus goes back to the
// composer (a new post) or to the card replied to (a reply); a draft whose upload the server no
// longer knows posts its text after saying so; adding images, an avatar or a header is one click to
// the file picker. Screenshots (360 and 1280 px, light and dark) go to web/test-results/screenshots
// (composer-…). Skips, saying why, when the server binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { DESKTOP, PHONE, launchBrowser, newContext, screenshot } from './support/browser'
import { expectFailures } from './support/guard'
import { call, expectAccessible, noHorizontalScroll, signUp, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'
import { makePng } from './support/png.mjs'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the composer journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

/** A screenshot under test-results/screenshots, named for this area. */
const shot = (page: Page, name: string) => screenshot(page, `composer-${name}`)

const composerOf = (page: Page) => page.getByRole('textbox', { name: "What's happening?" }).first()

async function expectToast(page: Page, text: string) {
  await page.getByRole('region', { name: /^Notifications \(F8\)/ }).getByText(text, { exact: true }).first().waitFor()
}

/** Clicks `button` and answers the file picker it opens (one click, no uploader in between) with `count` pictures. */
async function pick(page: Page, button: string, count = 1) {
  const chooser = page.waitForEvent('filechooser', { timeout: 5_000 })
  await page.getByRole('button', { name: button }).first().click()
  const picker = await chooser
  await picker.setFiles(
    Array.from({ length: count }, (_, i) => ({ name: `picture-${i + 1}.png`, mimeType: 'image/png', buffer: makePng(480, 320, 60 + i * 70) })),
  )
  return picker
}

/** The element that has focus, as its accessible-ish name and the text of the card it is in. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement
    return {
      label: element?.getAttribute('aria-label') ?? element?.tagName.toLowerCase() ?? '',
      card: element?.closest('article')?.textContent ?? '',
    }
  })
}

describe.skipIf(!hasMurmur)('the composer keeps what is typed', () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    ada = await signUp(browser, server, 'ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
  })

  afterAll(async () => {
    await ada?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it('one click opens the file picker for images; they upload and attach with no further step', async () => {
    const { page } = ada
    await page.goto('/')
    const picker = await pick(page, 'Add images', 2)
    expect(picker.isMultiple()).toBe(true)
    await page.getByRole('img', { name: 'Attached image 2' }).waitFor()
    // The uploader closed itself once both were up.
    await expect.poll(() => page.locator('.uppy-Dashboard--modal[aria-hidden="false"]').count()).toBe(0)
    await page.getByRole('button', { name: 'Remove image 2' }).click()
    await page.getByRole('button', { name: 'Remove image 1' }).click()
  })

  it('a draft on Home, picture and all, comes back after navigating away and after a reload', async () => {
    const { page } = ada
    await page.goto('/')
    await composerOf(page).fill('Half a thought about tides')
    await pick(page, 'Add images')
    const thumbnail = page.getByRole('img', { name: 'Attached image 1' })
    // The small copy a draft keeps has replaced the page-bound object URL.
    await expect.poll(() => thumbnail.getAttribute('src'), { timeout: 10_000 }).toMatch(/^data:image\//)

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discover' }).click()
    await page.waitForURL('**/discover')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click()
    await expect.poll(() => composerOf(page).inputValue()).toBe('Half a thought about tides')
    await thumbnail.waitFor()

    await page.reload()
    await expect.poll(() => composerOf(page).inputValue()).toBe('Half a thought about tides')
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img[alt="Attached image 1"]')
      return img?.complete && img.naturalWidth > 0
    })
    await shot(page, 'draft-desktop-light')
  })

  it('the draft reads well at 360 px and 1280 px in the dark theme', async () => {
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      const context = await newContext(browser, server.url, viewport, { colorScheme: 'dark' })
      await context.addCookies(await ada.context.cookies())
      const page = await context.newPage()
      // The draft lives in the browser: this one is a new browser profile, so it is written here.
      await page.goto('/')
      await composerOf(page).fill('Half a thought about tides')
      await pick(page, 'Add images')
      await page.getByRole('button', { name: 'Add description of image 1' }).waitFor()
      await noHorizontalScroll(page)
      await shot(page, `draft-${size}-dark`)
      await expectAccessible(page, `the composer with a draft (${size}, dark)`)
      await context.close()
    }
    const phone = await newContext(browser, server.url, PHONE)
    await phone.addCookies(await ada.context.cookies())
    const page = await phone.newPage()
    await page.goto('/')
    await composerOf(page).fill('Half a thought about tides')
    await noHorizontalScroll(page)
    await shot(page, 'draft-phone-light')
    await phone.close()
  })

  it('Ctrl+Enter posts from Home, and focus stays in the composer for the next post', async () => {
    const { page } = ada
    await page.goto('/')
    // The picture of the draft above goes; the text is replaced.
    await page.getByRole('button', { name: 'Remove image 1' }).click()
    await composerOf(page).fill('Posted from the keyboard')
    await composerOf(page).press('Control+Enter')
    await expectToast(page, 'Post created')
    await page.getByRole('article').filter({ hasText: 'Posted from the keyboard' }).first().waitFor()
    expect(await composerOf(page).inputValue()).toBe('')
    expect(await composerOf(page).evaluate((element) => element === document.activeElement)).toBe(true)

    // Posted: the draft is gone after a reload too.
    await page.reload()
    await composerOf(page).waitFor()
    expect(await composerOf(page).inputValue()).toBe('')
  })

  it('a reply posted with Ctrl+Enter gives focus back to the card replied to', async () => {
    const { page } = ada
    const card = page.getByRole('article').filter({ hasText: 'Posted from the keyboard' }).first()
    await card.getByRole('button', { name: /^Reply \(/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Create Post' })
    await dialog.getByRole('textbox', { name: 'Post your reply' }).fill('And a reply from the keyboard')
    await page.keyboard.press('Control+Enter')
    await expectToast(page, 'Post created')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(async () => (await focused(page)).card).toContain('Posted from the keyboard')
    expect((await focused(page)).label).toMatch(/^Reply \(/)
  })

  it('closing the dialog with something written asks "Discard post?"; Keep editing keeps it, Discard forgets it', async () => {
    const { page } = ada
    await page.goto('/')
    await page.getByRole('button', { name: 'New Post' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Create Post' })
    await dialog.getByRole('textbox', { name: "What's happening?" }).fill('Maybe not')
    await page.keyboard.press('Escape')
    const question = page.getByRole('dialog', { name: 'Discard post?' })
    await question.waitFor()
    await shot(page, 'discard-desktop-light')
    await expectAccessible(page, 'the discard question')

    await question.getByRole('button', { name: 'Keep editing' }).click()
    await question.waitFor({ state: 'detached' })
    expect(await dialog.getByRole('textbox', { name: "What's happening?" }).inputValue()).toBe('Maybe not')
    // Focus is back in the text, where the member was.
    await expect.poll(() => dialog.getByRole('textbox', { name: "What's happening?" }).evaluate((e) => e === document.activeElement)).toBe(true)

    // The dialog's draft outlives the page: after a reload, New Post opens with the text.
    await page.reload()
    await page.getByRole('button', { name: 'New Post' }).first().click()
    await expect.poll(() => dialog.getByRole('textbox', { name: "What's happening?" }).inputValue()).toBe('Maybe not')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await question.getByRole('button', { name: 'Discard' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'New Post' }).first().click()
    expect(await dialog.getByRole('textbox', { name: "What's happening?" }).inputValue()).toBe('')
    // Nothing written: it closes without asking.
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await question.count()).toBe(0)
  })

  it('the discard question reads well at 360 px and 1280 px, light and dark', async () => {
    for (const [size, viewport] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await newContext(browser, server.url, viewport, { colorScheme })
        await context.addCookies(await ada.context.cookies())
        const page = await context.newPage()
        await page.goto('/')
        await page.getByRole('button', { name: 'New Post' }).first().click()
        await page.getByRole('dialog', { name: 'Create Post' }).getByRole('textbox').fill('Maybe not')
        await page.keyboard.press('Escape')
        await page.getByRole('dialog', { name: 'Discard post?' }).waitFor()
        await noHorizontalScroll(page)
        await shot(page, `discard-${size}-${colorScheme}`)
        await context.close()
      }
    }
  })

  it('a draft whose upload the server no longer knows says so, keeps the text, and posts it', async () => {
    const { context, page } = ada
    expectFailures(context, { method: 'POST', path: /^\/api\/posts$/, status: 400 })
    await page.goto('/')
    const gone = `/api/objects/upload/${'0'.repeat(32)}?expires=1&sig=gone`
    await page.evaluate(
      ([key, url]) =>
        localStorage.setItem(
          key,
          JSON.stringify({
            content: 'Written last week',
            images: [{ uploadUrl: url, previewUrl: null, description: 'An old picture' }],
            pollOptions: null,
            pollHours: 24,
            savedAt: Date.now() - 3 * 24 * 3600_000,
          }),
        ),
      [`murmur-draft:${ada.id}:home`, gone],
    )
    await page.reload()
    await expect.poll(() => composerOf(page).inputValue()).toBe('Written last week')
    await page.getByRole('img', { name: 'Attached image 1' }).waitFor()
    await page.getByRole('button', { name: 'Post', exact: true }).first().click()
    await page.getByRole('alert').filter({ hasText: 'no longer on the server' }).waitFor()
    expect(await composerOf(page).inputValue()).toBe('Written last week')
    expect(await page.getByRole('img', { name: 'Attached image 1' }).count()).toBe(0)

    await page.getByRole('button', { name: 'Post', exact: true }).first().click()
    await expectToast(page, 'Post created')
    await page.getByRole('article').filter({ hasText: 'Written last week' }).first().waitFor()
  })

  it('the avatar and the header are one click to the file picker too, one file each', async () => {
    const { page } = ada
    const me = await call(page.context().request, 'GET', '/api/auth/me')
    await page.goto(`/profile/${me.username as string}`)
    for (const button of ['Change profile picture', 'Change header']) {
      // The upload waits a moment, so the uploader's progress can be seen and pictured.
      await page.route('**/api/objects/upload/*', async (route) => {
        await new Promise((r) => setTimeout(r, 1200))
        // The page may have moved on meanwhile.
        await route.continue().catch(() => {})
      })
      const picker = await pick(page, button)
      expect(picker.isMultiple()).toBe(false)
      await page.locator('.uppy-Dashboard-inner:visible').waitFor()
      await shot(page, `uploader-${button === 'Change header' ? 'header' : 'avatar'}-desktop-light`)
      await expectToast(page, 'Image updated')
      await page.unroute('**/api/objects/upload/*')
    }
  })

  it('the uploader reads well in the dark theme at 360 px', async () => {
    const context = await newContext(browser, server.url, PHONE, { colorScheme: 'dark' })
    await context.addCookies(await ada.context.cookies())
    const page = await context.newPage()
    await page.route('**/api/objects/upload/*', async (route) => {
      await new Promise((r) => setTimeout(r, 1500))
      await route.continue().catch(() => {})
    })
    await page.goto('/')
    await pick(page, 'Add images')
    await page.locator('.uppy-Dashboard-inner:visible').waitFor()
    await shot(page, 'uploader-phone-dark')
    await page.getByRole('img', { name: 'Attached image 1' }).waitFor()
    await context.close()
  })
})

// Image descriptions and the lightbox in a real browser against the real `murmur serve`: a
// member uploads two pictures, describes one in the composer, is reminded once about the other,
// posts; the card names each picture by its description (or position and author); the lightbox
// opens full size, moves with the arrow keys, closes on Escape and gives focus back; the
// reminder can be turned off in Settings. Skips, saying why, when the server binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { DESKTOP, PHONE, SCREENSHOT_DIR, launchBrowser, screenshot } from './support/browser'
import { call, darkPage as darkPageOf, expectAccessible, noHorizontalScroll, signUp, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'
import { makePng } from './support/png.mjs'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the image descriptions journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const DESCRIPTION = 'A sea-green gradient crossed by thin diagonal stripes'

/** Attaches `count` pictures through the uploader and waits for their thumbnails. */
async function attach(page: Page, count: number) {
  // One click opens the file picker; the picked files upload at once and the uploader closes itself.
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('button', { name: 'Add images' }).first().click()
  await (await chooser).setFiles(
    Array.from({ length: count }, (_, i) => ({ name: `picture-${i + 1}.png`, mimeType: 'image/png', buffer: makePng(480, 320, 90 + i * 60) })),
  )
  await page.getByRole('img', { name: `Attached image ${count}` }).waitFor()
}

async function expectToast(page: Page, text: string) {
  await page.getByRole('region', { name: /^Notifications \(F8\)/ }).getByText(text, { exact: true }).first().waitFor()
}

/** The element that has focus, as a short description: tag and its image's alt. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement
    return `${element?.tagName.toLowerCase()} ${element?.querySelector('img')?.getAttribute('alt') ?? ''}`.trim()
  })
}

describe.skipIf(!hasMurmur)('image descriptions and the lightbox in a browser', () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member
  /** How the cards name Ada's undescribed pictures: by position and her display name. */
  let byAda = (n: number, of: number) => `Image ${n} of ${of}`

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
    ada = await signUp(browser, server, 'ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    const me = await call(ada.context.request, 'GET', '/api/auth/me')
    byAda = (n, of) => `Image ${n} of ${of} posted by ${me.displayName as string}`
  })

  afterAll(async () => {
    await ada?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it('a member describes one of two pictures, is reminded once about the other, and posts', async () => {
    const { page } = ada
    await page.goto('/')
    await page.getByRole('textbox', { name: "What's happening?" }).first().fill('Two pictures from the lake')
    await attach(page, 2)

    await page.getByRole('button', { name: 'Add description of image 1' }).click()
    const describe = page.getByRole('dialog', { name: 'Describe image 1' })
    await describe.getByRole('textbox', { name: 'Description' }).fill(DESCRIPTION)
    await describe.getByText(`${DESCRIPTION.length}/1500`).waitFor()
    await screenshot(page, 'images-desktop-describe')
    await expectAccessible(page, 'the description dialog')
    await describe.getByRole('button', { name: 'Save description' }).click()
    await page.getByRole('button', { name: 'Edit description of image 1' }).waitFor()

    await page.getByRole('button', { name: 'Post', exact: true }).first().click()
    const reminder = page.getByRole('dialog', { name: 'Add image descriptions?' })
    await reminder.getByText(/An image has no description/).waitFor()
    await screenshot(page, 'images-desktop-reminder')
    await reminder.getByRole('button', { name: 'Post anyway' }).click()
    await expectToast(page, 'Post created')

    const card = page.getByRole('article').filter({ hasText: 'Two pictures from the lake' }).first()
    await card.getByRole('img', { name: DESCRIPTION }).waitFor()
    await card.getByRole('img', { name: byAda(2, 2) }).waitFor()
  })

  it('a picture opens full size in the lightbox; arrows move, Escape closes and focus goes back', async () => {
    const { page } = ada
    const card = page.getByRole('article').filter({ hasText: 'Two pictures from the lake' }).first()
    await card.getByRole('img', { name: DESCRIPTION }).click()

    const lightbox = page.getByRole('dialog', { name: 'Image 1 of 2' })
    await lightbox.waitFor()
    const full = lightbox.getByRole('img', { name: DESCRIPTION })
    // The full image, not a display copy.
    expect(await full.getAttribute('src')).toMatch(/^\/objects\/[0-9a-f]{32}$/)
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[role="dialog"] img')
      return img?.complete && img.naturalWidth === 480
    })
    await screenshot(page, 'images-desktop-lightbox')
    await expectAccessible(page, 'the lightbox')

    await page.keyboard.press('ArrowRight')
    await page.getByRole('dialog', { name: 'Image 2 of 2' }).getByRole('img', { name: byAda(2, 2) }).waitFor()
    await page.keyboard.press('ArrowRight')
    await page.getByRole('dialog', { name: 'Image 1 of 2' }).waitFor()
    await page.keyboard.press('ArrowLeft')
    await page.getByRole('dialog', { name: 'Image 2 of 2' }).waitFor()

    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    // Focus goes back as the dialog's close finishes, which may be a frame after it left the page.
    await expect.poll(() => focused(page)).toBe(`a ${DESCRIPTION}`)
    // The card's click-to-thread stayed out of it.
    expect(new URL(page.url()).pathname).toBe('/')

    // From the keyboard too: Enter on the second picture opens it; focus comes back to it.
    await card.getByRole('link').filter({ has: page.getByRole('img', { name: byAda(2, 2) }) }).focus()
    await page.keyboard.press('Enter')
    await page.getByRole('dialog', { name: 'Image 2 of 2' }).waitFor()
    await page.keyboard.press('ArrowLeft')
    await page.getByRole('dialog', { name: 'Image 1 of 2' }).waitFor()
    await page.keyboard.press('Escape')
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    await expect.poll(() => focused(page)).toBe(`a ${byAda(2, 2)}`)
  })

  it('with the reminder turned off in Settings, a picture without a description posts at once', async () => {
    const { page } = ada
    await page.goto('/settings')
    const reminder = page.getByRole('checkbox', { name: 'Remind me to add image descriptions' })
    expect(await reminder.isChecked()).toBe(true)
    await reminder.uncheck()
    await page.goto('/')
    await page.getByRole('textbox', { name: "What's happening?" }).first().fill('No words for this one')
    await attach(page, 1)
    await page.getByRole('button', { name: 'Post', exact: true }).first().click()
    await expectToast(page, 'Post created')
    expect(await page.getByRole('dialog', { name: 'Add image descriptions?' }).count()).toBe(0)
    await page.getByRole('article').filter({ hasText: 'No words for this one' }).getByRole('img', { name: byAda(1, 1) }).waitFor()
  })

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('the composer, the lightbox and Settings read well at %s size in the dark theme', async (size, viewport) => {
    const { context, page } = await darkPage(ada, viewport)
    await page.goto('/')
    await page.getByRole('textbox', { name: "What's happening?" }).first().fill('Dark pictures')
    await attach(page, 2)
    await noHorizontalScroll(page)
    await screenshot(page, `images-${size}-dark-composer`)
    await page.getByRole('button', { name: 'Add description of image 2' }).click()
    await page.getByRole('dialog', { name: 'Describe image 2' }).getByRole('textbox', { name: 'Description' }).fill(DESCRIPTION)
    await screenshot(page, `images-${size}-dark-describe`)
    await expectAccessible(page, `the description dialog (${size}, dark)`)
    await page.keyboard.press('Escape')

    const card = page.getByRole('article').filter({ hasText: 'Two pictures from the lake' }).first()
    await card.getByRole('img', { name: DESCRIPTION }).click()
    await page.getByRole('dialog', { name: 'Image 1 of 2' }).waitFor()
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[role="dialog"] img')
      return img?.complete && img.naturalWidth > 0
    })
    await noHorizontalScroll(page)
    await screenshot(page, `images-${size}-dark-lightbox`)
    await expectAccessible(page, `the lightbox (${size}, dark)`)
    await page.keyboard.press('Escape')

    await page.goto('/settings')
    await page.getByRole('checkbox', { name: 'Remind me to add image descriptions' }).waitFor()
    await noHorizontalScroll(page)
    await screenshot(page, `images-${size}-dark-settings`)
    await expectAccessible(page, `settings (${size}, dark)`)
    await context.close()
  })

  const darkPage = (member: Member, viewport: typeof DESKTOP) => darkPageOf(browser, server, member, viewport)
})

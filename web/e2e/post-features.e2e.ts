// Posts as a newcomer meets them (issue 62) in a real browser against the real `murmur serve`: Ada
// posts a picture with no text, then a five-minute poll where voters choose several options; Bob
// votes with the checkboxes; Ada pins the poll to her profile, where it shows first and labelled,
// and corrects her picture's description from Edit, the history keeping the first one; at 360 px her
// own post's actions keep one line, Edit and Delete being in More actions there. Screenshots at 360
// and 1280 px, light and dark (post-features-…). Skips, saying why, when the server binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { DESKTOP, PHONE, screenshot } from './support/browser'
import { call, darkPage, expectAccessible, noHorizontalScroll, startAdaAndBob, type AdaAndBob } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'
import { makePng } from './support/png.mjs'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the post features journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const FIRST_DESCRIPTION = 'A harbour at nigt'
const CORRECTED = 'A harbour at night, its lights on the water'
const QUESTION = 'Which soups this week?'

const shot = (page: Page, name: string) => screenshot(page, `post-features-${name}`)

interface PostJson {
  id: number
  content: string
  pollMultiple?: boolean
  pollExpiresAt?: string | null
  pollOptions: string[]
  pollVotes?: Record<string, number[]>
  images?: { url: string; alt: string | null }[]
}

/** The card of Ada's poll on a page. */
const pollCard = (page: Page): Locator => page.getByRole('article').filter({ hasText: QUESTION }).first()
/** The card of Ada's picture (the only card whose image has its description for a name). */
const pictureCard = (page: Page, description: string): Locator =>
  page.getByRole('article').filter({ has: page.getByRole('img', { name: description }) }).first()

/** The distinct tops of the visible buttons in a card's actions, rounded: one line is one top. */
async function actionLines(card: Locator): Promise<number> {
  const tops = await card.getByRole('button', { name: /^(Reply|Repost|Undo repost|Like|Unlike|Bookmark|Share|Edit post|Delete post|More actions)/ }).evaluateAll(
    (buttons) =>
      buttons
        .filter((button) => (button as HTMLElement).offsetParent !== null)
        .map((button) => Math.round(button.getBoundingClientRect().top)),
  )
  return new Set(tops).size
}

describe.skipIf(!hasMurmur)('post features in a browser', () => {
  let net: AdaAndBob
  let pollId = 0
  let pictureId = 0

  beforeAll(async () => {
    net = await startAdaAndBob()
  })

  afterAll(async () => {
    await net?.close()
  })

  it('Ada posts a picture with no text', async () => {
    const { page } = net.ada
    await page.goto('/')
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Add images' }).first().click()
    await (await chooser).setFiles([{ name: 'harbour.png', mimeType: 'image/png', buffer: makePng(480, 320, 200) }])
    await page.getByRole('img', { name: 'Attached image 1' }).waitFor()
    await page.getByRole('button', { name: 'Add description of image 1' }).click()
    const describe = page.getByRole('dialog', { name: 'Describe image 1' })
    await describe.getByRole('textbox', { name: 'Description' }).fill(FIRST_DESCRIPTION)
    await describe.getByRole('button', { name: 'Save description' }).click()
    const post = page.getByRole('button', { name: 'Post', exact: true }).first()
    expect(await post.isEnabled()).toBe(true)
    await post.click()
    await pictureCard(page, FIRST_DESCRIPTION).waitFor()
    const mine = (await call(net.ada.context.request, 'GET', `/api/users/${net.ada.username}/posts`)) as unknown as PostJson[]
    expect(mine[0]).toMatchObject({ content: '', images: [{ alt: FIRST_DESCRIPTION }] })
    pictureId = mine[0].id
  })

  it('Ada asks a five-minute question where voters choose several options', async () => {
    const { page } = net.ada
    await page.getByRole('textbox', { name: "What's happening?" }).first().fill(QUESTION)
    await page.getByRole('button', { name: 'Add poll' }).first().click()
    const options = ['Miso', 'Pho', 'Ramen']
    for (const [index, option] of options.entries()) {
      if (index >= 2) await page.getByRole('button', { name: 'Add option' }).click()
      await page.getByRole('textbox', { name: `Option ${index + 1}` }).fill(option)
    }
    await page.getByRole('combobox', { name: 'Poll length' }).selectOption({ label: '5 minutes' })
    await page.getByRole('checkbox', { name: 'Let voters choose several options' }).check()
    await shot(page, 'desktop-light-composer-poll')
    const startedAt = Date.now()
    await page.getByRole('button', { name: 'Post', exact: true }).first().click()
    await pollCard(page).waitFor()
    const mine = (await call(net.ada.context.request, 'GET', `/api/users/${net.ada.username}/posts`)) as unknown as PostJson[]
    const poll = mine.find((post) => post.content === QUESTION)
    expect(poll).toMatchObject({ pollMultiple: true, pollOptions: options })
    const lasts = Date.parse(poll?.pollExpiresAt ?? '') - startedAt
    expect(lasts).toBeGreaterThan(4 * 60_000)
    expect(lasts).toBeLessThanOrEqual(5 * 60_000 + 5_000)
    pollId = poll?.id ?? 0
  })

  it('Bob chooses two options with the checkboxes and votes once', async () => {
    const { page } = net.bob
    await page.goto('/')
    const card = pollCard(page)
    await card.getByRole('checkbox', { name: 'Miso' }).check()
    await card.getByRole('checkbox', { name: 'Ramen' }).check()
    await shot(page, 'desktop-light-poll-choosing')
    await card.getByRole('button', { name: 'Vote', exact: true }).click()
    await card.getByText('2 votes').waitFor()
    expect(await card.getByRole('checkbox').count()).toBe(0)
    const thread = (await call(net.bob.context.request, 'GET', `/api/posts/${pollId}/thread`)) as { post: PostJson }
    expect(thread.post.pollVotes).toEqual({ Miso: [net.bob.id], Pho: [], Ramen: [net.bob.id] })
    await expectAccessible(page, 'Home with a voted poll')
    await shot(page, 'desktop-light-poll-voted')
  })

  it('Ada pins the poll: her profile shows it first, labelled Pinned, and Unpin takes it off', async () => {
    const { page } = net.ada
    await page.goto(`/profile/${net.ada.username}`)
    await pollCard(page).getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Pin to profile' }).click()
    const first = page.getByRole('article').first()
    await first.getByText('Pinned').waitFor()
    expect(await first.textContent()).toContain(QUESTION)
    await expectAccessible(page, 'a profile with a pinned post')
    await shot(page, 'desktop-light-pinned')
    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { context, page: dark } = await darkPage(net.browser, net.server, net.ada, viewport)
      await dark.goto(`/profile/${net.ada.username}`)
      await dark.getByRole('article').first().getByText('Pinned').waitFor()
      await noHorizontalScroll(dark)
      await expectAccessible(dark, `a profile with a pinned post, ${name}, dark`)
      await shot(dark, `${name}-dark-pinned`)
      await context.close()
    }

    await page.getByRole('article').first().getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Unpin from profile' }).click()
    await expect.poll(async () => (await call(net.ada.context.request, 'GET', `/api/users/${net.ada.username}/pinned`)) as unknown as PostJson[]).toEqual([])
  })

  it("Ada corrects her picture's description from Edit, and the history keeps the first", async () => {
    const { page } = net.ada
    await page.goto('/')
    const card = pictureCard(page, FIRST_DESCRIPTION)
    await card.getByRole('button', { name: 'Edit post' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit post' })
    const description = dialog.getByRole('textbox', { name: 'Description of image 1' })
    expect(await description.inputValue()).toBe(FIRST_DESCRIPTION)
    await description.fill(CORRECTED)
    await expectAccessible(page, 'the edit dialog with an image description')
    await shot(page, 'desktop-light-edit-description')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })
    const corrected = pictureCard(page, CORRECTED)
    await corrected.waitFor()
    await corrected.getByRole('button', { name: /^Edited/ }).click()
    const history = page.getByRole('dialog', { name: 'Edit history' })
    await history.getByRole('img', { name: FIRST_DESCRIPTION }).waitFor()
    await shot(page, 'desktop-light-history')
    const versions = (await call(net.ada.context.request, 'GET', `/api/posts/${pictureId}/history`)) as unknown as {
      images: { alt: string | null }[]
    }[]
    expect(versions.map((version) => version.images.map((image) => image.alt))).toEqual([[FIRST_DESCRIPTION]])
    await page.keyboard.press('Escape')
  })

  it("at 360 px the author's actions keep one line, with Edit and Delete in More actions", async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page } =
        scheme === 'dark'
          ? await darkPage(net.browser, net.server, net.ada, PHONE)
          : { context: null, page: net.ada.page }
      if (scheme === 'light') await page.setViewportSize(PHONE)
      await page.goto('/')
      // A new post is within its hour: Reply, Repost, Like, Bookmark, Share and More actions.
      const card = pictureCard(page, CORRECTED)
      await card.waitFor()
      expect(await actionLines(card)).toBe(1)
      expect(await actionLines(pollCard(page))).toBe(1)
      await noHorizontalScroll(page)
      await shot(page, `phone-${scheme}-own-actions`)
      await card.getByRole('button', { name: 'More actions' }).click()
      const menu = page.getByRole('menu')
      await menu.getByRole('menuitem', { name: 'Edit post' }).waitFor()
      await menu.getByRole('menuitem', { name: 'Delete post' }).waitFor()
      await expectAccessible(page, `own post menu, phone, ${scheme}`)
      await shot(page, `phone-${scheme}-own-menu`)
      await menu.getByRole('menuitem', { name: 'Edit post' }).click()
      await page.getByRole('dialog', { name: 'Edit post' }).waitFor()
      await page.keyboard.press('Escape')
      if (context) await context.close()
      else await page.setViewportSize(DESKTOP)
    }
    // At 1280 px Edit and Delete are on the card, not in the menu.
    const { page } = net.ada
    await page.goto('/')
    const card = pictureCard(page, CORRECTED)
    await card.getByRole('button', { name: 'Delete post' }).waitFor()
    await card.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Pin to profile' }).waitFor()
    expect(await page.getByRole('menuitem', { name: 'Delete post' }).isVisible()).toBe(false)
    await page.keyboard.press('Escape')
  })
})

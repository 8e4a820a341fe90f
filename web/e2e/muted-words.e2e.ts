// Muted words in a real browser against the real `murmur serve`: Bob, who follows Ada, mutes
// "spoilers" for 24 hours in Settings; Ada's post holding it leaves his Home at once while her
// other post stays; in her thread a reply holding it is folded ("Hidden by a muted word — show")
// and opens from the keyboard; removing the word brings the post back. Screenshots at 360 and 1280
// px, light and dark, go to web/test-results/screenshots (muted-words-…). Skips, saying why, when
// the server binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DESKTOP, PHONE, newContext, screenshot } from './support/browser'
import { call, darkPage, expectAccessible, noHorizontalScroll, startAdaAndBob, type AdaAndBob } from './support/members'
import { expectFailures } from './support/guard'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the muted words journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const MUTED = 'SPOILERS: the butler did it'
const PLAIN = 'A quiet walk by the river'
const ROOT = 'Movie night, who is in?'
const MUTED_REPLY = 'Careful, spoilers ahead in the comments'

/** A screenshot under test-results/screenshots, named for this area. */
const shot = (page: Page, name: string) => screenshot(page, `muted-words-${name}`)

describe.skipIf(!hasMurmur)('muted words in a browser', () => {
  let net: AdaAndBob
  let rootId = 0

  beforeAll(async () => {
    net = await startAdaAndBob()
    const write = (content: string, replyToId?: number) =>
      call(net.ada.context.request, 'POST', '/api/posts', { content, ...(replyToId ? { replyToId } : {}) })
    await write(PLAIN)
    await write(MUTED)
    rootId = (await write(ROOT)).id as number
    await write(MUTED_REPLY, rootId)
    await write('Count me in', rootId)
  })

  afterAll(async () => {
    await net?.close()
  })

  it('Bob mutes "spoilers" for 24 hours in Settings and sees when it ends', async () => {
    const { page } = net.bob
    await page.goto('/')
    await page.getByText(MUTED).first().waitFor()
    await page.goto('/settings')
    const card = page.getByRole('region', { name: 'Muted words' })
    await card.getByText("You haven't muted any words.").waitFor()
    await card.getByRole('textbox', { name: 'Word, phrase or hashtag' }).fill('spoilers')
    await card.getByRole('combobox', { name: 'For' }).selectOption({ label: '24 hours' })
    await card.getByRole('button', { name: 'Mute', exact: true }).click()
    const list = card.getByRole('list', { name: 'Your muted words' })
    await list.getByText('spoilers', { exact: true }).waitFor()
    await list.getByText(/^Muted until /).waitFor()
    expect(await card.getByRole('textbox', { name: 'Word, phrase or hashtag' }).inputValue()).toBe('')
    const kept = (await call(net.bob.context.request, 'GET', '/api/muted-words')) as unknown as { expiresAt: string | null }[]
    expect(kept).toHaveLength(1)
    expect(kept[0]?.expiresAt).not.toBeNull()
    await card.scrollIntoViewIfNeeded()
    await expectAccessible(page, 'Settings with a muted word')
    await shot(page, 'desktop-light-settings')
  })

  it('a refused word says why and keeps what was typed', async () => {
    const { page } = net.bob
    const card = page.getByRole('region', { name: 'Muted words' })
    const field = card.getByRole('textbox', { name: 'Word, phrase or hashtag' })
    await field.fill('#!?')
    expectFailures(net.bob.context, { method: 'POST', path: /^\/api\/muted-words$/, status: 400 })
    await card.getByRole('button', { name: 'Mute', exact: true }).click()
    await card.getByText('A muted word needs at least one letter or digit').waitFor()
    expect(await field.inputValue()).toBe('#!?')
    await field.fill('')
  })

  it("Ada's post holding it leaves Bob's Home; the other stays", async () => {
    const { page } = net.bob
    await page.goto('/')
    await page.getByText(PLAIN).first().waitFor()
    expect(await page.getByText(MUTED).count()).toBe(0)
    await shot(page, 'desktop-light-home')
  })

  it('in the thread the reply is folded and opens from the keyboard', async () => {
    const { page } = net.bob
    await page.goto(`/post/${rootId}`)
    await page.getByText('Count me in').waitFor()
    const show = page.getByRole('button', { name: 'show', exact: true })
    await show.waitFor()
    await page.getByText('Hidden by a muted word —').waitFor()
    expect(await page.getByText(MUTED_REPLY).count()).toBe(0)
    await expectAccessible(page, 'A thread with a folded reply')
    await shot(page, 'desktop-light-thread-folded')
    await show.focus()
    await page.keyboard.press('Enter')
    await page.getByText(MUTED_REPLY).waitFor()
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-unfolded'))).toBe(true)
    await shot(page, 'desktop-light-thread-shown')
  })

  async function lightPage(viewport: typeof DESKTOP) {
    const context = await newContext(net.browser, net.server.url, viewport)
    await context.addCookies(await net.bob.context.cookies())
    return { context, page: await context.newPage() }
  }

  it('reads well at 360 px and in the dark theme', async () => {
    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      for (const dark of [true, false]) {
        if (!dark && name === 'desktop') continue
        const { context, page } = dark ? await darkPage(net.browser, net.server, net.bob, viewport) : await lightPage(viewport)
        const theme = dark ? 'dark' : 'light'
        await page.goto('/settings')
        const card = page.getByRole('region', { name: 'Muted words' })
        await card.getByText('spoilers', { exact: true }).waitFor()
        await card.scrollIntoViewIfNeeded()
        await noHorizontalScroll(page)
        await shot(page, `${name}-${theme}-settings`)
        await page.goto(`/post/${rootId}`)
        await page.getByRole('button', { name: 'show', exact: true }).waitFor()
        await noHorizontalScroll(page)
        await expectAccessible(page, `A folded reply, ${name}, ${theme}`)
        await shot(page, `${name}-${theme}-thread-folded`)
        await context.close()
      }
    }
  })

  it('removing the word brings the post back', async () => {
    const { page } = net.bob
    await page.goto('/settings')
    const card = page.getByRole('region', { name: 'Muted words' })
    await card.getByRole('button', { name: 'Remove “spoilers”' }).click()
    await card.getByText("You haven't muted any words.").waitFor()
    await page.goto('/')
    await page.getByText(MUTED).first().waitFor()
  })
})

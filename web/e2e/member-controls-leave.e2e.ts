// Deleting one's account in a real browser against the real `murmur serve` (fresh SQLite data
// dir): Ada asks in Settings, follows the link from the outbox, confirms on the screen it opens
// and lands logged out; her post is gone from Bob's feed. Skips, saying why, when the server
// binary is missing.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { PHONE, SCREENSHOT_DIR, launchBrowser, screenshot } from './support/browser'
import { expectFailures } from './support/guard'
import { call, darkPage, expectAccessible, noHorizontalScroll, signUp, type Member } from './support/members'
import { MURMUR_BIN, decodeQuotedPrintable, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the leaving journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

/** The newest deletion link e-mailed to `email` after `after` (ms since epoch), from the outbox. */
async function deletionLinkFor(server: MurmurServer, email: string, after: number): Promise<string> {
  const outbox = join(server.dataDir, 'outbox')
  const until = Date.now() + 15_000
  for (;;) {
    if (existsSync(outbox)) {
      const files = readdirSync(outbox)
        .filter((name) => name.endsWith('.eml'))
        .map((name) => join(outbox, name))
        .filter((file) => statSync(file).mtimeMs >= after - 1000)
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
      for (const file of files) {
        const text = decodeQuotedPrintable(readFileSync(file, 'utf8'))
        if (!text.toLowerCase().includes(email)) continue
        const link = text.match(/https?:\/\/[^\s"'<>]+\/account\/delete\?token=[A-Za-z0-9_-]+/)?.[0]
        if (link) return link
      }
    }
    if (Date.now() > until) throw new Error(`no deletion link for ${email} in ${outbox}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

describe.skipIf(!hasMurmur)('leaving in a browser', () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member
  let bob: Member
  let link = ''

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
    ada = await signUp(browser, server, 'ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    bob = await signUp(browser, server, 'bob@example.com', await server.createInvite())
    await call(bob.context.request, 'POST', '/api/follows', { followingId: ada.id })
    await call(ada.context.request, 'POST', '/api/posts', { content: 'Goodbye, Murmur. It was lovely.' })
  })

  afterAll(async () => {
    for (const member of [ada, bob]) await member?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it("Bob sees Ada's post in his feed", async () => {
    await bob.page.goto('/')
    await bob.page.getByText('Goodbye, Murmur. It was lovely.').waitFor()
  })

  it('Ada asks in Settings: a dialog first, then the e-mail', async () => {
    const { page } = ada
    await page.goto('/settings')
    const section = page.getByRole('region', { name: 'Delete account' })
    await section.getByRole('button', { name: 'Delete account' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
    await dialog.waitFor()
    await screenshot(page, 'leave-desktop-ask')
    await expectAccessible(page, 'the deletion dialog')
    const sentAt = Date.now()
    await dialog.getByRole('button', { name: 'Send confirmation e-mail' }).click()
    await dialog.waitFor({ state: 'detached' })
    await section.getByRole('status').getByText(/Check your email/).waitFor()
    await screenshot(page, 'leave-desktop-sent')
    link = await deletionLinkFor(server, 'ada@example.com', sentAt)
    expect(link.startsWith(`${server.url}/account/delete?token=`)).toBe(true)
  })

  it('opening the link asks once more and deletes nothing by itself (also at 360 px, dark)', async () => {
    const phone = await darkPage(browser, server, ada, PHONE)
    await phone.page.goto('/settings')
    await phone.page.getByRole('region', { name: 'Delete account' }).waitFor()
    await noHorizontalScroll(phone.page)
    await phone.page.getByRole('region', { name: 'Delete account' }).scrollIntoViewIfNeeded()
    await screenshot(phone.page, 'leave-phone-dark-settings')
    await phone.page.goto(link)
    await phone.page.getByRole('heading', { name: 'Delete your account for good?' }).waitFor()
    await noHorizontalScroll(phone.page)
    await screenshot(phone.page, 'leave-phone-dark-confirm')
    await phone.context.close()
    // Still a member: opening the page did nothing.
    const me = await call(ada.context.request, 'GET', '/api/auth/me')
    expect(me.username).toBe('ada')
  })

  it('Ada confirms and lands on the landing page, logged out', async () => {
    const { page, context } = ada
    await page.goto(link)
    const screen = page.getByRole('region', { name: 'Delete your account for good?' })
    await screen.getByRole('button', { name: 'Delete my account' }).waitFor()
    await screenshot(page, 'leave-desktop-confirm')
    await expectAccessible(page, 'the deletion screen')
    // Her session ends with the account: the tab's live stream and any call still on its way are refused.
    expectFailures(context, { path: /^\/api\//, status: 401 })
    await screen.getByRole('button', { name: 'Delete my account' }).click()
    await page.getByRole('heading', { name: 'The human network' }).waitFor({ timeout: 15_000 })
    await screenshot(page, 'leave-desktop-landed')
    const response = await context.request.get('/api/auth/me')
    expect(response.status()).toBe(401)
  })

  it("Ada's post is gone from Bob's feed, and her profile says the account was deleted", async () => {
    const { page } = bob
    await page.goto('/')
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor()
    await page.getByText(/No posts from people you follow yet/).waitFor()
    expect(await page.getByText('Goodbye, Murmur. It was lovely.').count()).toBe(0)
    expectFailures(bob.context, { path: /^\/api\/users\/ada/, status: 404 })
    await page.goto('/profile/ada')
    await page.getByText('User not found.').or(page.getByText(/This account was deleted/)).first().waitFor()
  })
})

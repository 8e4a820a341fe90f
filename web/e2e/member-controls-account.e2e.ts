// A member's own account in a real browser against the real `murmur serve` (fresh SQLite data
// dir): the sessions on Settings, ending one from another browser (which is logged out at
// once, and keeps no draft), logging out everywhere else after a confirm, changing the e-mail
// address through the link sent to the new one, and logging out (which leaves no draft in the
// browser). Skips, saying why, when the server binary is missing.
//
// The person: Ada, in two or three browser contexts of her own (a laptop and a phone).
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { DESKTOP, PHONE, SCREENSHOT_DIR, launchBrowser, newContext, screenshot } from './support/browser'
import { expectFailures } from './support/guard'
import { call, darkPage, expectAccessible, noHorizontalScroll, signUp, type Member } from './support/members'
import { MURMUR_BIN, decodeQuotedPrintable, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the account journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const toasts = (page: Page) => page.getByRole('region', { name: /^Notifications \(F8\)/ })

/** Another browser of `email`'s member, logged in through the e-mailed link, on Home. */
async function logInElsewhere(browser: Browser, server: MurmurServer, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, server.url, DESKTOP)
  const page = await context.newPage()
  const sentAt = Date.now()
  await call(context.request, 'POST', '/api/auth/request-login-link', { email })
  await page.goto(await server.magicLinkFor(email, sentAt))
  await page.getByRole('heading', { name: 'Home', exact: true }).waitFor({ timeout: 15_000 })
  return { context, page }
}

/** Everything the page's storage holds, as text: a draft's words show in it while it is kept. */
const storedText = (page: Page) =>
  page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))

/** Types `text` in Home's composer and waits until the draft is kept in the browser. */
async function writeDraft(page: Page, text: string) {
  await page.getByRole('textbox', { name: "What's happening?" }).first().fill(text)
  await expect.poll(() => storedText(page)).toContain(text)
}

async function openSettings(page: Page) {
  await page.goto('/settings')
  await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor()
  const sessions = page.getByRole('region', { name: 'Sessions' })
  await sessions.getByText('This device').waitFor()
  return sessions
}

/** The subjects of the messages in the outbox to `address`. */
function subjectsTo(server: MurmurServer, address: string): string[] {
  const outbox = join(server.dataDir, 'outbox')
  return readdirSync(outbox)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => decodeQuotedPrintable(readFileSync(join(outbox, name), 'utf8')))
    .filter((text) => new RegExp(`^To: .*${address.replaceAll('.', '\\.')}`, 'mi').test(text))
    .map((text) => /^Subject: (.*)$/m.exec(text)?.[1]?.trim() ?? '')
}

describe.skipIf(!hasMurmur)("a member's account in a browser", () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member
  const others: BrowserContext[] = []

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
  })

  afterAll(async () => {
    for (const context of others) await context.close()
    await ada?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it("a member ends another browser's session from Settings, and that browser is logged out at once", async () => {
    ada = await signUp(browser, server, 'ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    const phone = await logInElsewhere(browser, server, 'ada@example.com')
    others.push(phone.context)

    const sessions = await openSettings(ada.page)
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2)
    const rows = sessions.getByRole('listitem')
    await rows.first().getByText('This device').waitFor()
    await rows.first().getByText('Active now · 127.0.0.0/24').waitFor()
    // Two sessions of one browser tell apart by when and where they were last used.
    await rows.nth(1).getByText(/^Last active in the past few minutes · 127\.0\.0\.0\/24 · Logged in /).waitFor()
    await rows.nth(1).getByText(/^Chrome \d+ on Linux$/).waitFor()
    await ada.page.getByRole('region', { name: 'E-mail address' }).getByText('ada@example.com').waitFor()
    await screenshot(ada.page, 'account-desktop-settings')
    await expectAccessible(ada.page, 'settings with sessions')

    // The phone's page is open, with a draft: its live stream hears of the end and takes it to the
    // login dialog, and the draft is not left behind in that browser.
    await writeDraft(phone.page, 'A draft only the phone knows')
    expectFailures(phone.context, { path: /^\/api\/auth\/me$/, status: 401 })
    await sessions.getByRole('button', { name: /^Log out Chrome \d+ on Linux, logged in / }).click()
    await toasts(ada.page).getByText(/^Logged out Chrome \d+ on Linux$/).waitFor()
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1)
    await phone.page.getByRole('dialog', { name: 'Welcome back' }).waitFor()
    const refused = await phone.context.request.get('/api/auth/me')
    expect(refused.status()).toBe(401)
    expect(await storedText(phone.page)).not.toContain('A draft only the phone knows')

    // Ada's own browser is untouched.
    await ada.page.reload()
    await ada.page.getByRole('region', { name: 'Sessions' }).getByText('This device').waitFor()
  })

  it('"Log out everywhere else" asks first, then ends every other session', async () => {
    const tablet = await logInElsewhere(browser, server, 'ada@example.com')
    others.push(tablet.context)
    const sessions = await openSettings(ada.page)
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2)

    await sessions.getByRole('button', { name: 'Log out everywhere else' }).click()
    const dialog = ada.page.getByRole('dialog', { name: 'Log out everywhere else?' })
    await dialog.getByText('Your other session will be logged out at once', { exact: false }).waitFor()
    await screenshot(ada.page, 'account-desktop-log-out-everywhere-else')
    await expectAccessible(ada.page, 'log out everywhere else')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(await sessions.getByRole('listitem').count()).toBe(2)

    expectFailures(tablet.context, { path: /^\/api\/auth\/me$/, status: 401 })
    await sessions.getByRole('button', { name: 'Log out everywhere else' }).click()
    await dialog.getByRole('button', { name: 'Log out everywhere else' }).click()
    await toasts(ada.page).getByText('Logged out everywhere else', { exact: true }).waitFor()
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1)
    expect(await sessions.getByRole('button', { name: 'Log out everywhere else' }).count()).toBe(0)
    await tablet.page.getByRole('dialog', { name: 'Welcome back' }).waitFor()
  })

  it('a member changes their address through the link sent to the new one; the old one is told', async () => {
    const { page } = ada
    await openSettings(page)
    const card = page.getByRole('region', { name: 'E-mail address' })
    const sentAt = Date.now()
    await card.getByRole('textbox', { name: 'New e-mail address' }).fill('ada.lovelace@example.com')
    await card.getByRole('button', { name: 'Send confirmation link' }).click()
    await card.getByRole('status').getByText('Check the inbox of your new address', { exact: false }).waitFor()
    await screenshot(page, 'account-desktop-email-link-sent')

    const link = await server.linkFor('ada.lovelace@example.com', '/auth/confirm-email', sentAt)
    await page.goto(link)
    await page.getByRole('heading', { name: 'Address changed' }).waitFor()
    await page.getByText('Your e-mail address is now ada.lovelace@example.com.').waitFor()
    await screenshot(page, 'account-desktop-email-changed')
    await expectAccessible(page, 'address changed')
    expect(subjectsTo(server, 'ada@example.com')).toContain('Your Murmur e-mail address was changed')

    // Her session stayed; Settings shows the new address.
    await page.getByRole('button', { name: 'Go to Settings' }).click()
    await page.getByRole('region', { name: 'E-mail address' }).getByText('ada.lovelace@example.com').waitFor()

    // The link works once.
    expectFailures(ada.context, { path: /^\/api\/auth\/email\/confirm$/, status: 400 })
    await page.goto(link)
    await page.getByRole('heading', { name: 'Address not changed' }).waitFor()
    await page.getByText('Invalid or expired link').waitFor()
  })

  it('Settings and the confirmation fit a 360 px phone in the dark theme', async () => {
    const { context, page } = await darkPage(browser, server, ada, PHONE)
    others.push(context)
    const sessions = await openSettings(page)
    await sessions.getByRole('listitem').first().waitFor()
    await noHorizontalScroll(page)
    await screenshot(page, 'account-phone-dark-settings')
    await expectAccessible(page, 'settings on a phone')
    const card = page.getByRole('region', { name: 'E-mail address' })
    await card.getByRole('textbox', { name: 'New e-mail address' }).fill('ada.at.work@example.com')
    await card.getByRole('button', { name: 'Send confirmation link' }).click()
    await card.getByRole('status').getByText('Check the inbox of your new address', { exact: false }).waitFor()
    await noHorizontalScroll(page)
    await screenshot(page, 'account-phone-dark-email-link-sent')

    expectFailures(context, { path: /^\/api\/auth\/email\/confirm$/, status: 400 })
    await page.goto('/auth/confirm-email?token=' + 'x'.repeat(43))
    await page.getByRole('heading', { name: 'Address not changed' }).waitFor()
    await noHorizontalScroll(page)
    await screenshot(page, 'account-phone-dark-confirm-failed')
  })

  it('logging out leaves no draft in the browser', async () => {
    const { page } = ada
    await page.goto('/')
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor()
    await writeDraft(page, 'Half a thought nobody else should read')
    await page.getByRole('button', { name: /User menu/ }).click()
    await page.getByRole('menuitem', { name: 'Log out' }).click()
    await page.getByRole('heading', { name: 'The human network' }).waitFor()
    expect(await storedText(page)).not.toContain('Half a thought nobody else should read')
  })
})

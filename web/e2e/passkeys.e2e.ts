// Passkeys in a real browser against the real `murmur serve`: Chromium's virtual authenticator
// (DevTools' WebAuthn domain: a platform authenticator with resident keys and user verification)
// stands in for a fingerprint reader. Ada adds a passkey in Settings, logs out, and signs in
// with it from the login dialog; once she removes it, it signs nobody in. Bob, signed in a
// while ago, confirms it's him (with his passkey, then with an e-mailed link) before he adds
// another. Skips, saying why, when the server binary is missing.
//
// WebAuthn needs a secure context and a domain: the instance's public URL is
// http://localhost:<port> here, and the browser uses that very host (the passkey's site).
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, CDPSession, Page } from 'playwright-core'
import { PHONE, SCREENSHOT_DIR, launchBrowser, screenshot } from './support/browser'
import { expectFailures } from './support/guard'
import { darkPage, expectAccessible, noHorizontalScroll, signUp, type Member } from './support/members'
import { MURMUR_BIN, decodeQuotedPrintable, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the passkeys journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const toasts = (page: Page) => page.getByRole('region', { name: /^Notifications \(F8\)/ })

/** A platform authenticator for `page`, as a laptop's fingerprint reader: it says yes at once. */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}

/** Makes `email`'s sessions as old as a sign-in 11 minutes ago: too old to add a passkey. */
function signedInLongAgo(server: MurmurServer, email: string) {
  const statement =
    'UPDATE sessions SET created_at = created_at - 660000, reauthenticated_at = NULL ' +
    `WHERE user_id = (SELECT id FROM users WHERE email = '${email}')`
  execFileSync('sqlite3', ['-cmd', '.timeout 5000', join(server.dataDir, 'murmur.db'), statement])
}

/** Swaps the page's authenticator for a new one (a second device): it holds none of the passkeys. */
async function anotherAuthenticator(page: Page, old: { cdp: CDPSession; authenticatorId: string }) {
  await old.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: old.authenticatorId })
  return addVirtualAuthenticator(page)
}

async function logOut(page: Page) {
  const response = await page.request.post('/api/auth/logout', { headers: { 'X-Requested-With': 'murmur' } })
  expect(response.status()).toBe(204)
  await page.goto('/')
  await page.getByRole('button', { name: 'Login' }).waitFor()
}

/**
 * Opens the login dialog and signs in with the button "Sign in with a passkey". The page is
 * told the browser has no passkey autofill first: the virtual authenticator would answer the
 * e-mail field's offer at once, before the button is pressed.
 */
async function signInWithPasskey(page: Page) {
  await page.evaluate(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false)
  })
  await page.getByRole('button', { name: 'Login' }).click()
  const dialog = page.getByRole('dialog', { name: 'Welcome back' })
  await dialog.getByRole('button', { name: 'Sign in with a passkey' }).click()
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

describe.skipIf(!hasMurmur)('passkeys in a browser', () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member
  let bob: Member | undefined

  beforeAll(async () => {
    server = await startMurmur({ host: 'localhost' })
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
  })

  afterAll(async () => {
    await ada?.context.close()
    await bob?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it('a member adds a passkey in Settings, logs out, and signs in with it', async () => {
    ada = await signUp(browser, server, 'ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    const { page } = ada
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page)

    await page.goto('/settings')
    const card = page.getByRole('region', { name: 'Passkeys' })
    await card.getByText('You have no passkeys yet.').waitFor()
    await card.getByLabel('Passkey name').fill('This laptop')
    await card.getByRole('button', { name: 'Add a passkey' }).click()
    await toasts(page).getByText('Passkey added').waitFor()
    await card.getByRole('listitem').filter({ hasText: 'This laptop' }).getByText(/· Never used$/).waitFor()
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
    expect(credentials).toHaveLength(1)
    expect(credentials[0]?.isResidentCredential, 'a discoverable passkey').toBe(true)
    await expect.poll(() => subjectsTo(server, 'ada@example.com')).toContain('A passkey was added to your account')

    await logOut(page)
    await signInWithPasskey(page)
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor({ timeout: 15_000 })

    // Where the browser offers passkeys in the e-mail field's autofill (conditional mediation),
    // opening the dialog is enough: the virtual authenticator picks the one passkey at once.
    await logOut(page)
    await page.getByRole('button', { name: 'Login' }).click()
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor({ timeout: 15_000 })

    // The session says how it was signed in; the passkey when it was last used.
    await page.goto('/settings')
    const sessions = page.getByRole('region', { name: 'Sessions' })
    await sessions.getByRole('listitem').filter({ hasText: 'This device' }).getByText(/with a passkey$/).waitFor()
    await card.getByRole('listitem').filter({ hasText: 'This laptop' }).getByText(/· Last used /).waitFor()
    await screenshot(page, 'passkeys-settings')
  })

  it('the Passkeys card works at 360 px in the dark theme', async () => {
    const { context, page } = await darkPage(browser, server, ada, PHONE)
    await page.goto('/settings')
    const card = page.getByRole('region', { name: 'Passkeys' })
    await card.getByText('This laptop').waitFor()
    await card.scrollIntoViewIfNeeded()
    await noHorizontalScroll(page)
    await expectAccessible(page, 'Settings with passkeys, dark, 360 px')
    await screenshot(page, 'passkeys-settings-dark-360')
    await context.close()
  })

  it('a removed passkey signs nobody in', async () => {
    const { page, context } = ada
    await page.goto('/settings')
    const card = page.getByRole('region', { name: 'Passkeys' })
    await card.getByRole('button', { name: /^Remove This laptop, added / }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove this passkey?' })
    await dialog.getByRole('button', { name: 'Remove passkey' }).click()
    await card.getByText('You have no passkeys yet.').waitFor()

    await logOut(page)
    // The browser still holds the passkey; the server refuses it.
    expectFailures(context, { path: /^\/api\/auth\/passkeys\/login\/finish$/, status: 400, method: 'POST' })
    await signInWithPasskey(page)
    // The toast sits outside the open dialog, which hides the rest of the page from roles.
    await page.getByText(/^This passkey is not known here\./).waitFor()
    await page.getByRole('dialog', { name: 'Welcome back' }).waitFor()
    const me = await page.request.get('/api/auth/me')
    expect(me.status()).toBe(401)
  })

  it("a sign-in over 10 minutes old is confirmed, with a passkey or an e-mailed link, before a passkey is added", async () => {
    bob = await signUp(browser, server, 'bob@example.com', await server.createInvite())
    const { page, context } = bob
    let authenticator = await addVirtualAuthenticator(page)
    await page.goto('/settings')
    const card = page.getByRole('region', { name: 'Passkeys' })
    const add = async (name: string) => {
      await card.getByLabel('Passkey name').fill(name)
      await card.getByRole('button', { name: 'Add a passkey' }).click()
    }
    // The form empties its field once the passkey is kept: a name typed before that would be lost.
    const added = async (name: string) => {
      await card.getByRole('listitem').filter({ hasText: name }).waitFor()
      await expect.poll(() => card.getByLabel('Passkey name').inputValue()).toBe('')
    }
    await add('Laptop')
    await toasts(page).getByText('Passkey added').waitFor()
    await added('Laptop')

    // Eleven minutes later the server asks for a fresh sign-in; his passkey gives one.
    signedInLongAgo(server, 'bob@example.com')
    expectFailures(context, { path: /^\/api\/auth\/passkeys\/register\/start$/, status: 403, method: 'POST' })
    await add('Second key')
    let dialog = page.getByRole('dialog', { name: "Confirm it's you" })
    await dialog.getByText('You signed in a while ago.', { exact: false }).waitFor()
    await screenshot(page, 'passkeys-confirm-its-you')
    await expectAccessible(page, "Confirm it's you")
    await dialog.getByRole('button', { name: 'Use a passkey' }).click()
    await toasts(page).getByText("It's you", { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    authenticator = await anotherAuthenticator(page, authenticator)
    await card.getByRole('button', { name: 'Add a passkey' }).click()
    await added('Second key')

    // Later again, an e-mailed link opened in this browser confirms the same session.
    signedInLongAgo(server, 'bob@example.com')
    await add('Third key')
    dialog = page.getByRole('dialog', { name: "Confirm it's you" })
    const sentAt = Date.now()
    await dialog.getByRole('button', { name: 'E-mail me a link' }).click()
    await dialog.getByText('We sent a link to bob@example.com.', { exact: false }).waitFor()
    await dialog.getByRole('button', { name: 'Done' }).click()
    const mailTab = await context.newPage()
    await mailTab.goto(await server.linkFor('bob@example.com', '/auth/reauthenticate', sentAt))
    await mailTab.getByRole('heading', { name: "It's you" }).waitFor()
    await mailTab.close()
    await anotherAuthenticator(page, authenticator)
    await card.getByRole('button', { name: 'Add a passkey' }).click()
    await card.getByRole('listitem').filter({ hasText: 'Third key' }).waitFor()
    expect(await card.getByRole('listitem').count()).toBe(3)
    const me = await page.request.get('/api/auth/me')
    expect(me.status(), 'the same session all along').toBe(200)
  })
})

// A newcomer's first hour in a real browser against the real `murmur serve`: sign-up with an invite,
// the first-run step, the inviter's starter pack on Home, a profile's followers list, and an old
// profile address after a rename. Skips, saying why, when the server binary is missing.
//
// The people: Ada signs up first and follows Grace; Newt joins with Ada's invite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { DESKTOP, PHONE, SCREENSHOT_DIR, launchBrowser, newContext, screenshot } from './support/browser'
import { call, signUp as signUpMember, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the first hour: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

describe.skipIf(!hasMurmur)("a newcomer's first hour in a browser", () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member
  let grace: Member
  let newt: Member

  /** `member`'s session on `path` at both widths, light and dark, saved as `name-<width>-<scheme>`. */
  async function pictures(member: Member, path: string, name: string, ready: (page: Page) => Promise<unknown>) {
    for (const viewport of [PHONE, DESKTOP])
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await newContext(browser, server.url, viewport, { colorScheme })
        await context.addCookies(await member.context.cookies())
        const page = await context.newPage()
        await page.goto(path)
        await ready(page)
        await screenshot(page, `${name}-${viewport.width}-${colorScheme}`)
        await context.close()
      }
  }

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
    ada = await signUpMember(browser, server, 'ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    grace = await signUpMember(browser, server, 'grace@example.com', await server.createInvite())
    await call(ada.context.request, 'POST', '/api/follows', { followingId: grace.id })
  })

  afterAll(async () => {
    for (const member of [ada, grace, newt]) await member?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it('a newcomer invited by Ada picks a username in the first-run step', async () => {
    const invite = (await call(ada.context.request, 'POST', '/api/invites')).code as string
    newt = await signUpMember(browser, server, 'newt@example.com', invite, { firstRun: 'keep' })
    const step = newt.page.getByRole('region', { name: 'Welcome to Murmur' })
    await step.waitFor()
    await pictures(newt, '/', 'first-run', (page) => page.getByRole('region', { name: 'Welcome to Murmur' }).waitFor())

    const username = step.getByRole('textbox', { name: 'Username' })
    expect(await username.inputValue()).toBe(newt.username)
    await username.fill('newt')
    await step.getByRole('textbox', { name: 'Bio' }).fill('Here for the lighthouses.')
    await step.getByRole('button', { name: 'Continue' }).click()
    await step.waitFor({ state: 'detached' })
    const me = await call(newt.context.request, 'GET', '/api/auth/me')
    expect(me).toMatchObject({ username: 'newt', firstRunDone: true, bio: 'Here for the lighthouses.' })
    newt.username = 'newt'
  })

  it("Home shows the people Ada follows, and Newt follows one", async () => {
    const { page } = newt
    const pack = page.getByRole('region', { name: 'People your inviter follows' })
    await pack.getByRole('link', { name: /Grace|@grace/ }).first().waitFor()
    await pictures(newt, '/', 'welcome-home', (other) => other.getByRole('region', { name: 'People your inviter follows' }).waitFor())
    await pack.getByRole('button', { name: /^Follow / }).first().click()
    await pack.getByRole('button', { name: /^Following .*, unfollow$/ }).first().waitFor()
    const graceProfile = await call(newt.context.request, 'GET', `/api/users/${grace.username}`)
    expect(graceProfile.followerCount).toBe(2)
  })

  it("Grace's followers list opens from her profile", async () => {
    const { page } = newt
    await page.goto(`/profile/${grace.username}`)
    await page.getByRole('link', { name: /2 Followers/ }).click()
    await page.waitForURL(`**/profile/${grace.username}/followers`)
    const list = page.getByRole('region', { name: 'Followers' })
    await list.getByRole('link', { name: /@newt/ }).waitFor()
    await list.getByRole('link', { name: new RegExp(`@${ada.username}`) }).waitFor()
  })

  it("Ada's old profile address leads to her new username", async () => {
    const old = ada.username
    const response = await ada.context.request.fetch('/api/users/profile', {
      method: 'PUT',
      data: { username: 'countess', displayName: 'Ada', bio: '', website: '' },
      headers: { 'X-Requested-With': 'murmur' },
    })
    expect(response.status()).toBe(200)
    const { page } = newt
    await page.goto(`/profile/${old}`)
    await page.waitForURL('**/profile/countess')
    await page.getByText('@countess', { exact: true }).first().waitFor()
  })
})

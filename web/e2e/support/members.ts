// Members of a test instance as the browser journeys use them: each signed up through the
// e-mailed link in a browser context of their own, and the calls and checks the journeys share.
import { expect } from 'vitest'
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core'
import { DESKTOP, SCREENSHOT_DIR, describeViolations, launchBrowser, newContext, seriousA11yViolations } from './browser'
import { startMurmur, type MurmurServer } from './murmur-server'

export interface Member {
  context: BrowserContext
  page: Page
  id: number
  username: string
}

/** A JSON call as the app makes it (the cross-site guard wants X-Requested-With); throws unless ok. */
export async function call(request: APIRequestContext, method: 'GET' | 'POST' | 'DELETE', path: string, data?: unknown) {
  const response = await request.fetch(path, { method, data, headers: { 'X-Requested-With': 'murmur' } })
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`)
  if (response.status() === 204) return {}
  return response.json() as Promise<Record<string, unknown>>
}

export async function expectAccessible(page: Page, screen: string) {
  const violations = await seriousA11yViolations(page)
  expect(violations, `${screen}:\n${describeViolations(violations)}`).toEqual([])
}

export async function noHorizontalScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0)
}

/**
 * Signs `email` up with `inviteCode` through the e-mailed link, in a browser context of their own;
 * the first-run step is marked done unless `firstRun: 'keep'`.
 */
export async function signUp(
  browser: Browser,
  server: MurmurServer,
  email: string,
  inviteCode: string,
  options: { firstRun?: 'keep' | 'done' } = {},
): Promise<Member> {
  const context = await newContext(browser, server.url, DESKTOP)
  const page = await context.newPage()
  const sentAt = Date.now()
  await call(context.request, 'POST', '/api/auth/request-magic-link', { email, inviteCode })
  await page.goto(await server.magicLinkFor(email, sentAt))
  await page.getByRole('heading', { name: 'Home', exact: true }).waitFor({ timeout: 15_000 })
  const me = await call(context.request, 'GET', '/api/auth/me')
  if (options.firstRun !== 'keep') {
    // The journeys start from the Home a member has after the first-run step (first-hour.e2e.ts walks it).
    await call(context.request, 'POST', '/api/users/first-run')
    await page.reload()
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor({ timeout: 15_000 })
  }
  return { context, page, id: me.id as number, username: me.username as string }
}

/** A context on `member`'s session at `viewport`, in the dark theme. */
export async function darkPage(browser: Browser, server: MurmurServer, member: Member, viewport: typeof DESKTOP) {
  const context = await newContext(browser, server.url, viewport, { colorScheme: 'dark' })
  await context.addCookies(await member.context.cookies())
  return { context, page: await context.newPage() }
}

/** A fresh `murmur serve` and browser with two members: Ada, the first, and Bob, who follows her. */
export interface AdaAndBob {
  server: MurmurServer
  browser: Browser
  ada: Member
  bob: Member
  /** Closes the members' contexts, the browser and the server. */
  close: () => Promise<void>
}

export async function startAdaAndBob(): Promise<AdaAndBob> {
  const server = await startMurmur()
  const browser = await launchBrowser().catch(async (error: unknown) => {
    await server.stop()
    throw error
  })
  console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
  let ada: Member, bob: Member
  try {
    ada = await signUp(browser, server, 'ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    bob = await signUp(browser, server, 'bob@example.com', await server.createInvite())
    await call(bob.context.request, 'POST', '/api/follows', { followingId: ada.id })
  } catch (error) {
    // No server or browser left behind when setting up fails.
    await browser.close()
    await server.stop()
    throw error
  }
  return {
    server,
    browser,
    ada,
    bob,
    async close() {
      for (const member of [ada, bob]) await member.context.close()
      await browser.close()
      await server.stop()
    },
  }
}

// An app connecting to a member's account, in a real browser against the real `murmur serve`:
// the consent page for a visitor (who signs in by the e-mailed link and comes back to it) and
// for a member (Allow, the out-of-band code), Settings' Connected apps with Revoke, and the
// Mastodon API called by masto.js from a page on another origin (CORS, as a browser app such as
// Elk makes it). Skips, saying why, when the server binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext } from 'playwright-core'
import type * as Masto from 'masto'
import { build } from 'vite'
import { DESKTOP, PHONE, SCREENSHOT_DIR, launchBrowser, newContext, screenshot } from './support/browser'
import { call, darkPage, expectAccessible, noHorizontalScroll, signUp, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the apps journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const OOB = 'urn:ietf:wg:oauth:2.0:oob'

/** The real masto.js bundled for the browser as the global `masto`, kept in memory (nothing written). */
async function bundleMasto(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    build: {
      write: false,
      emptyOutDir: false,
      minify: false,
      lib: { entry: createRequire(import.meta.url).resolve('masto'), formats: ['iife'], name: 'masto', fileName: () => 'masto.js' },
    },
  })
  const files = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : []))
  const chunk = files.find((file) => file.type === 'chunk')
  if (chunk?.type !== 'chunk') throw new Error('masto.js did not bundle')
  return chunk.code
}

describe.skipIf(!hasMurmur)('an app connecting to a member’s account', () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member
  const contexts: BrowserContext[] = []
  let app: { client_id: string; client_secret: string }
  let authorizeUrl: string
  let mastoJs: string

  beforeAll(async () => {
    const bundling = bundleMasto()
    server = await startMurmur()
    mastoJs = await bundling
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
    ada = await signUp(browser, server, 'ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    const registered = await fetch(`${server.url}/api/v1/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Pocket Murmur', redirect_uris: OOB, scopes: 'read write follow', website: 'https://pocket.example' }),
    })
    app = (await registered.json()) as typeof app
    authorizeUrl = `/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent(OOB)}&scope=read+write`
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await ada?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it('a visitor signs in by the e-mailed link and comes back to the consent page', async () => {
    const context = await newContext(browser, server.url, PHONE)
    contexts.push(context)
    const page = await context.newPage()
    await page.goto(authorizeUrl)
    await page.getByRole('heading', { name: 'Sign in to Murmur to continue' }).waitFor()
    await screenshot(page, 'apps-consent-visitor-360')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('dialog').waitFor()
    const sentAt = Date.now()
    await call(context.request, 'POST', '/api/auth/request-login-link', { email: 'ada@example.com' })
    await page.goto(await server.magicLinkFor('ada@example.com', sentAt))
    await page.getByRole('heading', { name: 'Pocket Murmur wants to read and write as @ada' }).waitFor({ timeout: 15_000 })
    expect(page.url()).toContain('/oauth/authorize?')
    await noHorizontalScroll(page)
  })

  it('an app asking for scopes it never registered is named and sent back', async () => {
    const registered = await fetch(`${server.url}/api/v1/apps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Greedy Murmur', redirect_uris: 'https://greedy.example/back', scopes: 'read' }),
    })
    const greedy = (await registered.json()) as { client_id: string }
    const context = await newContext(browser, server.url, PHONE)
    contexts.push(context)
    await context.addCookies(await ada.context.cookies())
    const page = await context.newPage()
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: greedy.client_id,
      redirect_uri: 'https://greedy.example/back',
      scope: 'read write push',
      state: 'abc',
    })
    await page.goto(`/oauth/authorize?${query.toString()}`)
    await page.getByRole('heading', { name: 'Greedy Murmur cannot connect' }).waitFor()
    await page.getByText('Greedy Murmur asks for push and write, which it did not register, so it cannot connect to your account.').waitFor()
    expect(await page.getByRole('link', { name: 'Back to Greedy Murmur' }).getAttribute('href')).toBe(
      'https://greedy.example/back?error=invalid_scope&state=abc',
    )
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0)
    await noHorizontalScroll(page)
    await expectAccessible(page, 'the consent page refusing scopes')
    await screenshot(page, 'apps-consent-scopes-refused-360')
  })

  it('a member allows the app, copies its code, and the app reads as them', async () => {
    const page = ada.page
    await page.goto(authorizeUrl)
    await page.getByRole('heading', { name: 'Pocket Murmur wants to read and write as @ada' }).waitFor()
    await page.getByText('From https://pocket.example').waitFor()
    await expectAccessible(page, 'the consent page')
    await screenshot(page, 'apps-consent-1280')
    const dark = await darkPage(browser, server, ada, PHONE)
    contexts.push(dark.context)
    await dark.page.goto(authorizeUrl)
    await dark.page.getByRole('button', { name: 'Allow' }).waitFor()
    await noHorizontalScroll(dark.page)
    await screenshot(dark.page, 'apps-consent-360-dark')

    await page.getByRole('button', { name: 'Allow' }).click()
    await page.getByRole('heading', { name: 'Pocket Murmur is connected' }).waitFor()
    const code = (await page.locator('output').textContent())?.trim() ?? ''
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const token = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: OOB }),
    })
    const { access_token: accessToken } = (await token.json()) as { access_token: string }
    expect(accessToken).toBeTruthy()

    // A browser app on another origin (a page of its own on another port) calling through masto.js:
    // the real browser's CORS preflights (Authorization, JSON bodies) and the Link header it must
    // be allowed to read. A blocked request fails the test twice: masto throws, and the guard sees it.
    const elsewhere = createServer((request, response) => {
      if (request.url === '/masto.js') {
        response.setHeader('content-type', 'text/javascript')
        response.end(mastoJs)
        return
      }
      response.setHeader('content-type', 'text/html')
      response.end('<!doctype html><html lang="en"><title>Elsewhere</title><script src="/masto.js"></script><h1>A browser app</h1></html>')
    })
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve))
    const other = await newContext(browser, `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`, DESKTOP)
    try {
      const otherPage = await other.newPage()
      await otherPage.goto('/')
      const answer = await otherPage.evaluate(
        async ({ url, accessToken: bearer }) => {
          const { createRestAPIClient } = (window as unknown as { masto: typeof Masto }).masto
          const client = createRestAPIClient({ url, accessToken: bearer })
          const me = await client.v1.accounts.verifyCredentials()
          const posted: Masto.mastodon.v1.Status[] = []
          for (const status of ['One from elsewhere', 'Two from elsewhere', 'Three from elsewhere'])
            posted.push(await client.v1.statuses.create({ status }))
          // Pages of two: masto finds the second only through the first page's Link header.
          const pages: string[][] = []
          for await (const statuses of client.v1.timelines.home.list({ limit: 2 })) {
            pages.push(statuses.map((status) => status.id))
            if (pages.length === 2) break
          }
          const newest = posted[posted.length - 1]
          const liked = await client.v1.statuses.$select(newest.id).favourite()
          const removed = await client.v1.statuses.$select(newest.id).remove()
          const home = await client.v1.timelines.home.list({ limit: 40 })
          return {
            username: me.username,
            posted: posted.map((status) => ({ id: status.id, content: status.content, author: status.account.username })),
            pages,
            liked: { id: liked.id, favourited: liked.favourited, favouritesCount: liked.favouritesCount },
            removed: removed.id,
            home: home.map((status) => status.id),
          }
        },
        { url: server.url, accessToken },
      )
      expect(answer.username).toBe('ada')
      expect(answer.posted.map(({ content, author }) => ({ content, author }))).toEqual([
        { content: '<p>One from elsewhere</p>', author: 'ada' },
        { content: '<p>Two from elsewhere</p>', author: 'ada' },
        { content: '<p>Three from elsewhere</p>', author: 'ada' },
      ])
      const [one, two, three] = answer.posted
      expect(answer.pages).toEqual([[three.id, two.id], [one.id]])
      expect(answer.liked).toEqual({ id: three.id, favourited: true, favouritesCount: 1 })
      expect(answer.removed).toBe(three.id)
      expect(answer.home).toEqual([two.id, one.id])
    } finally {
      await other.close()
      elsewhere.close()
    }

    // Settings lists the app; Revoke ends its token.
    await page.goto('/settings')
    const card = page.getByRole('region', { name: 'Connected apps' })
    await card.getByText('Pocket Murmur').waitFor()
    await card.scrollIntoViewIfNeeded()
    await screenshot(page, 'apps-settings-1280')
    await card.getByRole('button', { name: 'Revoke Pocket Murmur' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
    await card.getByText('No apps are connected.').waitFor()
    const after = await fetch(`${server.url}/api/v1/accounts/verify_credentials`, { headers: { Authorization: `Bearer ${accessToken}` } })
    expect(after.status).toBe(401)
  })
})

// "Download my data" in a real browser against the real `murmur serve` (fresh SQLite data dir):
// a member asks for their archive in Settings, sees it being prepared, is told by a
// notification when it is ready (the request wakes the server's export job, so no wait for its
// sweep), and downloads the zip. Skips, saying why, when the server binary is missing.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { PHONE, SCREENSHOT_DIR, launchBrowser, screenshot } from './support/browser'
import { call, darkPage, expectAccessible, noHorizontalScroll, signUp, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the data export journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const section = (page: Page) => page.getByRole('region', { name: 'Download my data' })

describe.skipIf(!hasMurmur)('Download my data in a browser', () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
    ada = await signUp(browser, server, 'ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    await call(ada.context.request, 'POST', '/api/posts', { content: 'Counting things, as ever <3' })
  })

  afterAll(async () => {
    await ada?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it('a member asks for their data in Settings and sees it being prepared, then ready', async () => {
    const { page } = ada
    await page.goto('/settings')
    await section(page).getByRole('button', { name: 'Request my data' }).click()
    await section(page).getByRole('status').getByText(/Preparing your archive/).waitFor()
    // ready once the job is done; the section asks again while it is being prepared
    await section(page).getByRole('link', { name: 'Download' }).waitFor({ timeout: 30_000 })
    await section(page).getByText(/Your archive is ready \(\d+(\.\d)? (bytes|KB|MB)\)/).waitFor()
    await section(page).scrollIntoViewIfNeeded()
    await screenshot(page, 'export-desktop-ready')
  })

  it('the notification says the archive is ready and opens Settings', async () => {
    const { page } = ada
    await page.goto('/notifications')
    const notice = page.getByRole('button', { name: /^Your data archive is ready to download/ })
    await notice.waitFor()
    await notice.click()
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor()
    await section(page).getByRole('link', { name: 'Download' }).waitFor()
  })

  it('the download is the zip of the member’s data', async () => {
    const { page } = ada
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section(page).getByRole('link', { name: 'Download' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^murmur-data-\d{4}-\d{2}-\d{2}\.zip$/)
    const bytes = readFileSync(await download.path())
    expect(bytes.subarray(0, 2).toString()).toBe('PK')
    // the entries' names are stored as they are in the zip's headers
    const text = bytes.toString('latin1')
    for (const name of ['profile.json', 'posts.json', 'likes.json', 'following.json', 'followers.json', 'invites.json', 'index.html'])
      expect(text, name).toContain(name)
  })

  it('the section reads well at 360 px in the dark theme', async () => {
    const { context, page } = await darkPage(browser, server, ada, PHONE)
    await page.goto('/settings')
    await section(page).getByRole('link', { name: 'Download' }).waitFor()
    await section(page).scrollIntoViewIfNeeded()
    await noHorizontalScroll(page)
    await expectAccessible(page, 'settings with a ready archive')
    await screenshot(page, 'export-360-dark-ready')
    await context.close()
  })
})

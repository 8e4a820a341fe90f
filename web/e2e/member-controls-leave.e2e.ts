// Deleting one's account in a real browser against the real `murmur serve` (fresh SQLite data
// dir): Ada asks in Settings, follows the link from the outbox, confirms on the screen it opens
// and lands logged out; her post is gone from Bob's feed. Skips, saying why, when the server
// binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PHONE, screenshot } from './support/browser'
import { expectFailures } from './support/guard'
import { type AdaAndBob, call, darkPage, expectAccessible, noHorizontalScroll, startAdaAndBob } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the leaving journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

describe.skipIf(!hasMurmur)('leaving in a browser', () => {
  let journey: AdaAndBob
  let link = ''

  beforeAll(async () => {
    journey = await startAdaAndBob()
    await call(journey.ada.context.request, 'POST', '/api/posts', { content: 'Goodbye, Murmur. It was lovely.' })
  })

  afterAll(async () => {
    await journey?.close()
  })

  it("Bob sees Ada's post in his feed", async () => {
    await journey.bob.page.goto('/')
    await journey.bob.page.getByText('Goodbye, Murmur. It was lovely.').waitFor()
  })

  it('Ada asks in Settings: a dialog first, then the e-mail', async () => {
    const { page } = journey.ada
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
    link = await journey.server.linkFor('ada@example.com', '/account/delete', sentAt)
    expect(link.startsWith(`${journey.server.url}/account/delete?token=`)).toBe(true)
  })

  it('opening the link asks once more and deletes nothing by itself (also at 360 px, dark)', async () => {
    const phone = await darkPage(journey.browser, journey.server, journey.ada, PHONE)
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
    const me = await call(journey.ada.context.request, 'GET', '/api/auth/me')
    expect(me.username).toBe('ada')
  })

  it('Ada confirms and lands on the landing page, logged out', async () => {
    const { page, context } = journey.ada
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
    const { page } = journey.bob
    await page.goto('/')
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor()
    await page.getByText(/No posts from people you follow yet/).waitFor()
    expect(await page.getByText('Goodbye, Murmur. It was lovely.').count()).toBe(0)
    expectFailures(journey.bob.context, { path: /^\/api\/users\/ada/, status: 404 })
    await page.goto('/profile/ada')
    await page.getByText('User not found.').or(page.getByText(/This account was deleted/)).first().waitFor()
  })
})

// Everyday screens in a real browser against the real `murmur serve` (fresh SQLite data dir): a
// reply shows in an open thread as it is written, Trending lists one or two tags, Home's right
// column on a desktop, the landing page after an account is deleted, and Discover's search kept
// in the address. Skips, saying why, when the server binary is missing.
//
// The people: Ada signs up first (the instance's admin) and invites Grace and Cyd.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { DESKTOP, PHONE, SCREENSHOT_DIR, launchBrowser, newContext, screenshot } from './support/browser'
import { expectFailures } from './support/guard'
import { call, expectAccessible, noHorizontalScroll, signUp as signUpMember, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the everyday journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

/** Discover's Posts tab, typing `words` key by key; resolves when a result is marked. */
async function searchPosts(page: Page, words: string) {
  await page.getByRole('tab', { name: 'Posts' }).click()
  await page.getByRole('searchbox', { name: 'Search posts...' }).pressSequentially(words)
  await page.getByRole('region', { name: 'Search Results' }).locator('mark').first().waitFor()
}

describe.skipIf(!hasMurmur)('everyday screens in a browser', () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member
  let grace: Member
  let cyd: Member
  let lighthousesPostId = 0

  const signUp = (email: string, inviteCode: string) => signUpMember(browser, server, email, inviteCode)

  /** Runs `sql` on the server's database (a fresh SQLite file the server shares, in WAL mode). */
  const sql = (statement: string) =>
    execFileSync('sqlite3', ['-cmd', '.timeout 5000', join(server.dataDir, 'murmur.db'), statement], { encoding: 'utf8' })

  /**
   * Trending as the discovery job would store it, for `tags` (used in posts already). A fresh
   * instance has no member old enough to count for a day, so the test writes the result; the
   * job is held off meanwhile, so it does not recompute it away.
   */
  function trendingIs(...tags: string[]) {
    const now = Date.now()
    sql(`UPDATE jobs SET next_run_at = ${now + 3600_000} WHERE name = 'trending'`)
    sql('DELETE FROM trending_tags')
    tags.forEach((tag, i) =>
      sql(
        `INSERT INTO trending_tags (rank, tag_id, people_count, post_count, computed_at) ` +
          `SELECT ${i + 1}, id, ${3 + tags.length - i}, ${5 + tags.length - i}, ${now} FROM tags WHERE key = '${tag.toLowerCase()}'`,
      ),
    )
  }

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
  })

  afterAll(async () => {
    for (const member of [ada, grace, cyd]) await member?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it('members join, follow each other, and post with tags', async () => {
    ada = await signUp('ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    grace = await signUp('grace@example.com', (await call(ada.context.request, 'POST', '/api/invites')).code as string)
    cyd = await signUp('cyd@example.com', (await call(ada.context.request, 'POST', '/api/invites')).code as string)
    await call(ada.context.request, 'POST', '/api/follows', { followingId: grace.id })
    await call(grace.context.request, 'POST', '/api/follows', { followingId: ada.id })
    const lighthouses = await call(ada.context.request, 'POST', '/api/posts', { content: 'Walked to the #Lighthouses at dawn. Worth it.' })
    lighthousesPostId = lighthouses.id as number
    await call(grace.context.request, 'POST', '/api/posts', { content: 'A pot of #Tea and the first compiler notes.' })
  })

  it("a reply by another member shows in Ada's open thread as it is written, without a reload", async () => {
    const post = await call(ada.context.request, 'POST', '/api/posts', { content: 'Who has read the Bernoulli note?' })
    const postId = post.id as number
    const { page } = ada
    const stream = page.waitForResponse((response) => response.url().includes(`/api/events?post=${postId}`))
    await page.goto(`/post/${postId}`)
    expect((await stream).status()).toBe(200)
    const replies = page.getByRole('region', { name: 'Replies' })
    await replies.getByText('No replies yet.').waitFor()
    await page.evaluate(() => document.documentElement.setAttribute('data-everyday', 'same document'))

    await call(grace.context.request, 'POST', '/api/posts', { content: 'I have, twice. Note G is the program.', replyToId: postId })
    await replies.getByRole('article').filter({ hasText: 'I have, twice. Note G is the program.' }).waitFor({ timeout: 5_000 })
    expect(await replies.getByText('No replies yet.').count()).toBe(0)
    const card = page.getByRole('article').filter({ hasText: 'Who has read the Bernoulli note?' })
    expect(await card.getByRole('button', { name: 'Reply (1)' }).count()).toBe(1)
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-everyday'))).toBe('same document')
  })

  it('Trending lists a single tag, then two: what there is, not "Nothing is trending yet."', async () => {
    const { page } = grace
    trendingIs('Tea')
    await page.goto('/discover')
    const trending = page.getByRole('region', { name: 'Trending' })
    await trending.getByRole('link', { name: /^#Tea/ }).waitFor()
    expect(await trending.getByRole('link').count()).toBe(1)
    expect(await trending.getByText('Nothing is trending yet.').count()).toBe(0)

    trendingIs('Tea', 'Lighthouses')
    await page.reload()
    await trending.getByRole('link', { name: /^#Lighthouses/ }).waitFor()
    expect(await trending.getByRole('link').allTextContents()).toEqual(['#Tea 5 people posting', '#Lighthouses 4 people posting'])
    await trending.getByRole('link', { name: /^#Lighthouses/ }).click()
    await page.getByRole('heading', { level: 1, name: '#Lighthouses' }).waitFor()
  })

  it("Home's right column on a desktop shows Who to follow and Trending; a phone has none", async () => {
    const { page } = grace
    await page.goto('/')
    const column = page.getByRole('complementary', { name: 'Who to follow and Trending' })
    await column.getByRole('region', { name: 'Who to follow' }).getByRole('link', { name: /@cyd/ }).waitFor()
    await column.getByRole('region', { name: 'Trending' }).getByRole('link', { name: /^#Tea/ }).waitFor()
    // Beside the feed, not over it.
    const main = await page.getByRole('main').boundingBox()
    const aside = await column.boundingBox()
    expect(main && aside && aside.x >= main.x + main.width).toBe(true)
    await noHorizontalScroll(page)

    const phone = await newContext(browser, server.url, PHONE)
    await phone.addCookies(await grace.context.cookies())
    const phonePage = await phone.newPage()
    await phonePage.goto('/')
    await phonePage.getByRole('heading', { name: 'Home', exact: true }).waitFor()
    await phonePage.getByRole('article').first().waitFor()
    // The column only: a new member's welcome under the feed may suggest people on a phone too.
    expect(await phonePage.getByRole('complementary', { name: 'Who to follow and Trending' }).isVisible()).toBe(false)
    await phone.close()
  })

  it("Discover's search lives in the address: typing replaces the entry, and back, reload and a shared link find it", async () => {
    const { page } = grace
    await page.goto('/discover')
    const entries = await page.evaluate(() => history.length)
    await searchPosts(page, 'dawn')
    const address = () => new URL(page.url()).pathname + new URL(page.url()).search
    expect(address()).toBe('/discover?q=dawn&tab=posts')
    expect(await page.evaluate(() => history.length), 'one entry for the tab, none for the keys').toBe(entries + 1)

    await page.reload()
    expect(await page.getByRole('searchbox', { name: 'Search posts...' }).inputValue()).toBe('dawn')
    const results = page.getByRole('region', { name: 'Search Results' })
    await results.getByRole('article').filter({ hasText: 'Walked to the' }).waitFor()

    await results.locator(`a[href="/post/${lighthousesPostId}"]`).click()
    await page.getByRole('heading', { name: 'Thread' }).waitFor()
    await page.goBack()
    await results.getByRole('article').filter({ hasText: 'Walked to the' }).waitFor()
    expect(address()).toBe('/discover?q=dawn&tab=posts')
    expect(await page.getByRole('tab', { name: 'Posts' }).getAttribute('aria-selected')).toBe('true')

    // Ada opens the address Grace shared.
    await ada.page.goto('/discover?q=dawn&tab=posts')
    await ada.page.getByRole('region', { name: 'Search Results' }).getByRole('article').filter({ hasText: 'Walked to the' }).waitFor()
  })

  it.each([
    ['desktop', 'light', DESKTOP],
    ['desktop', 'dark', DESKTOP],
    ['phone', 'light', PHONE],
    ['phone', 'dark', PHONE],
  ] as const)('Home and Discover with a query read well at %s size, %s', async (size, colorScheme, viewport) => {
    const context = await newContext(browser, server.url, viewport, { colorScheme })
    await context.addCookies(await grace.context.cookies())
    const page = await context.newPage()
    await page.goto('/')
    await page.getByRole('article').first().waitFor()
    if (size === 'desktop') await page.getByRole('region', { name: 'Trending' }).getByRole('link').first().waitFor()
    await noHorizontalScroll(page)
    await screenshot(page, `everyday-${size}-${colorScheme}-home`)
    await expectAccessible(page, `Home (${size}, ${colorScheme})`)

    await page.goto('/discover?q=dawn&tab=posts')
    await page.getByRole('region', { name: 'Search Results' }).locator('mark').first().waitFor()
    await noHorizontalScroll(page)
    await screenshot(page, `everyday-${size}-${colorScheme}-discover`)
    await expectAccessible(page, `Discover with a query (${size}, ${colorScheme})`)
    await context.close()
  })

  it('after deleting her account Cyd lands on the landing page, which says so', async () => {
    const { page, context } = cyd
    const sentAt = Date.now()
    await call(context.request, 'POST', '/api/account/delete')
    const link = await server.linkFor('cyd@example.com', '/account/delete', sentAt)
    await page.goto(link)
    // Her session ends with the account: the tab's live stream and any call still on its way are refused.
    expectFailures(context, { path: /^\/api\//, status: 401 })
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await page.getByRole('heading', { name: 'The human network' }).waitFor({ timeout: 15_000 })
    const status = page.getByRole('status').filter({ hasText: 'Your account has been deleted.' })
    await status.waitFor()
    expect(new URL(page.url()).search, 'a reload says nothing more').toBe('')
    await screenshot(page, 'everyday-desktop-deleted')
    await expectAccessible(page, 'the landing page after deleting an account')
    await page.reload()
    await page.getByRole('heading', { name: 'The human network' }).waitFor()
    expect(await page.getByText('Your account has been deleted.').count()).toBe(0)
  })
})

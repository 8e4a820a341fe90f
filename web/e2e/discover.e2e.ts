// Discovery in a real browser against the real `murmur serve` (fresh SQLite data dir): a post's
// hashtag, mention and link drawn from the server's entities, the tag page, post search with
// the query's words marked, people search, and Trending on a fresh instance.
// Skips, saying why, when the server binary is missing.
//
// The people: Ada signs up first (the instance's admin) and invites Grace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import {
  DESKTOP,
  PHONE,
  SCREENSHOT_DIR,
  launchBrowser,
  screenshot,
} from './support/browser'
import { call, darkPage as darkPageOf, expectAccessible, noHorizontalScroll, signUp as signUpMember, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the discovery journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const LINK = 'https://example.com/some/long/path/to/a/page'
/** The link as a card shows it: no scheme, 29 characters and an ellipsis. */
const SHORT_LINK = 'example.com/some/long/path/to…'

/** Discover's Posts tab, searching `words`; resolves when a result is marked. */
async function searchPosts(page: Page, words: string) {
  await page.getByRole('tab', { name: 'Posts' }).click()
  await page.getByRole('searchbox', { name: 'Search posts...' }).fill(words)
  await page.getByRole('region', { name: 'Search Results' }).locator('mark').first().waitFor()
}

describe.skipIf(!hasMurmur)('discovery in a browser', () => {
  let server: MurmurServer
  let browser: Browser
  let ada: Member
  let grace: Member
  let postText = ''

  const signUp = (email: string, inviteCode: string) => signUpMember(browser, server, email, inviteCode)
  const darkPage = (member: Member, viewport: typeof DESKTOP) => darkPageOf(browser, server, member, viewport)

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
  })

  afterAll(async () => {
    for (const member of [ada, grace]) await member?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it('members join', async () => {
    ada = await signUp('ada@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    const invite = await call(ada.context.request, 'POST', '/api/invites')
    grace = await signUp('grace@example.com', invite.code as string)
    expect([ada.username, grace.username]).toEqual(['ada', 'grace'])
  })

  it("a post's hashtag, mention and link are links, drawn from what the server found in it", async () => {
    const { page } = ada
    postText = `Learning #RustLang with @${grace.username} see ${LINK}`
    await page.goto('/')
    await page.getByRole('textbox', { name: "What's happening?" }).first().fill(postText)
    await page.getByRole('button', { name: 'Post', exact: true }).first().click()

    const card = page.getByRole('article').filter({ hasText: 'Learning' }).first()
    await card.getByRole('link', { name: '#RustLang' }).waitFor()
    expect(await card.getByRole('link', { name: '#RustLang' }).getAttribute('href')).toBe('/tag/RustLang')
    expect(await card.getByRole('link', { name: `@${grace.username}`, exact: true }).getAttribute('href')).toBe(`/profile/${grace.username}`)
    const link = card.getByRole('link', { name: SHORT_LINK })
    expect(await link.getAttribute('href')).toBe(LINK)
    expect(await link.getAttribute('title')).toBe(LINK)
    expect(await link.getAttribute('target')).toBe('_blank')
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer nofollow')
    expect(await card.getByRole('link').count()).toBe(6) // avatar, name, time, and the three
    await screenshot(page, 'discover-desktop-post-entities')
  })

  it('the hashtag opens its page: the tag, its week in numbers and the post', async () => {
    const { page } = ada
    await page.getByRole('article').filter({ hasText: 'Learning' }).first().getByRole('link', { name: '#RustLang' }).click()
    await page.getByRole('heading', { level: 1, name: '#RustLang' }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/tag/RustLang')
    await page.getByText('1 post · 1 person this week').waitFor()
    await page.getByRole('article').filter({ hasText: 'Learning' }).getByRole('link', { name: SHORT_LINK }).waitFor()
    await screenshot(page, 'discover-desktop-tag')
    await expectAccessible(page, 'tag page')
  })

  it('Discover finds the post by the start of a word, marked in the hashtag', async () => {
    const { page } = grace
    await page.goto('/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discover' }).click()
    await page.getByRole('heading', { name: 'Discover' }).waitFor()
    await searchPosts(page, 'rust')
    const results = page.getByRole('region', { name: 'Search Results' })
    const card = results.getByRole('article').filter({ hasText: 'Learning' })
    expect(await card.count()).toBe(1)
    expect(await card.getByRole('link', { name: '#RustLang' }).locator('mark').textContent()).toBe('Rust')
    await screenshot(page, 'discover-desktop-posts-tab')
    await expectAccessible(page, 'discover, posts tab')
  })

  it('the People tab still finds members, and a fresh instance has nothing trending', async () => {
    const { page } = grace
    await page.getByRole('tab', { name: 'People' }).click()
    const box = page.getByRole('searchbox', { name: 'Search for users...' })
    await box.fill(ada.username)
    await page.getByRole('region', { name: 'Search Results' }).getByRole('link', { name: new RegExp(`@${ada.username}`) }).waitFor()
    await page.getByRole('region', { name: 'Trending' }).getByText('Nothing is trending yet.').waitFor()
  })

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('the tag page and the Posts tab read well at %s size in the dark theme', async (size, viewport) => {
    const { context, page } = await darkPage(grace, viewport)
    await page.goto('/tag/rustlang')
    await page.getByRole('heading', { level: 1, name: '#RustLang' }).waitFor()
    await page.getByRole('article').filter({ hasText: 'Learning' }).waitFor()
    await noHorizontalScroll(page)
    await screenshot(page, `discover-${size}-dark-tag`)
    await expectAccessible(page, `tag page (${size}, dark)`)

    await page.goto('/discover')
    await searchPosts(page, 'learning rust')
    await noHorizontalScroll(page)
    await screenshot(page, `discover-${size}-dark-posts-tab`)
    await expectAccessible(page, `discover, posts tab (${size}, dark)`)
    await context.close()
  })
})

// The whole product in a real browser against the real `murmur serve` (fresh SQLite data dir),
// reading magic links from the server's outbox. Skips, saying why, when the server binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import {
  DESKTOP,
  MOBILE,
  SCREENSHOT_DIR,
  describeViolations,
  launchBrowser,
  newContext,
  screenshot,
  seriousA11yViolations,
} from './support/browser'
import { expectFailures } from './support/guard'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'
import { makePng } from './support/png.mjs'

if (!hasMurmur) {
  console.warn(
    `\nSKIPPED the browser journeys: no server binary at ${MURMUR_BIN}.\n` +
      'Build it with `cargo build` (or set MURMUR_BIN) to run them.\n',
  )
}

const ALICE = 'alice@example.com'
const BOB = 'bob@example.com'

describe.skipIf(!hasMurmur)('Murmur in a browser', () => {
  let server: MurmurServer
  let browser: Browser
  let alice: { context: BrowserContext; page: Page }
  let bob: { context: BrowserContext; page: Page }
  let aliceInviteForBob = ''
  let pollPostId = 0
  /** What chromium reported as refused by the server's Content-Security-Policy, on any page. */
  const cspViolations: string[] = []

  async function open(viewport = DESKTOP) {
    const context = await newContext(browser, server.url, viewport)
    const page = await context.newPage()
    page.on('dialog', (dialog) => void dialog.accept())
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`))
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(`${page.url()}: ${message.text()}`)
    })
    return { context, page }
  }

  async function expectAccessible(page: Page, screen: string) {
    const violations = await seriousA11yViolations(page)
    expect(violations, `${screen}:\n${describeViolations(violations)}`).toEqual([])
  }

  async function expectToast(page: Page, text: string) {
    await page.getByRole('region', { name: /^Notifications \(F8\)/ }).getByText(text, { exact: true }).first().waitFor()
  }

  /** Requests a link in the login dialog, follows it from the outbox, and waits for Home. */
  async function logInThroughEmail(page: Page, email: string, inviteCode?: string) {
    await page.goto('/')
    // Someone with an invite joins; a member logs in.
    await page.getByRole('button', { name: inviteCode ? 'I have an invite' : 'Login' }).click()
    const dialog = page.getByRole('dialog', { name: inviteCode ? 'Join Murmur' : 'Welcome back' })
    if (inviteCode) await dialog.getByLabel('Invite code').fill(inviteCode)
    await dialog.getByLabel('Email', { exact: true }).fill(email)
    const sentAt = Date.now()
    await dialog.getByRole('button', { name: 'Send magic link' }).click()
    await dialog.getByRole('heading', { name: 'Check your email' }).waitFor()
    const link = await server.magicLinkFor(email, sentAt)
    await page.goto(link)
    await page.getByRole('heading', { name: 'Success!' }).waitFor()
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor({ timeout: 10_000 })
    expect(new URL(page.url()).pathname).toBe('/')
    if (inviteCode) {
      // A newcomer's first Home asks for a name and picture first (first-hour.e2e.ts walks it).
      const skip = page.getByRole('button', { name: 'Skip', exact: true })
      await skip.click()
      await skip.waitFor({ state: 'detached' })
    }
  }

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('a visitor joins the waitlist', async () => {
    const visitor = await open()
    const { page } = visitor
    await page.goto('/')
    await page.getByRole('heading', { name: 'The human network' }).waitFor()
    await expectAccessible(page, 'landing')
    await page.getByLabel('Email address').fill('someone@example.com')
    await page.getByRole('button', { name: 'Join waitlist' }).click()
    await page.getByText("We'll email you when it's your turn", { exact: false }).waitFor()
    await expectToast(page, "You're on the list!")
    await screenshot(page, 'journey-desktop-waitlist-joined')
    await visitor.context.close()
  })

  it('a bad link shows the failed verification screen', async () => {
    const visitor = await open()
    expectFailures(visitor.context, { path: /^\/api\/auth\/verify\?/, status: 400 })
    await visitor.page.goto('/auth/verify?token=not-a-real-token')
    await visitor.page.getByRole('heading', { name: 'Verification failed' }).waitFor()
    await visitor.page.getByText('Invalid or expired link').waitFor()
    await visitor.page.getByRole('button', { name: 'Back to home' }).click()
    await visitor.page.getByRole('heading', { name: 'The human network' }).waitFor()
    await visitor.context.close()
  })

  it('an invited person signs up and lands on Home', async () => {
    const code = await server.createInvite()
    alice = await open()
    await logInThroughEmail(alice.page, ALICE, code)
    await alice.page.getByText('No posts from people you follow yet. Try following some users!').waitFor()
    await screenshot(alice.page, 'journey-desktop-home-empty')
    await expectAccessible(alice.page, 'home')
  })

  it('a member generates an invite and copies it', async () => {
    const { page } = alice
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invites' }).click()
    await page.getByRole('heading', { name: 'Invite Friends' }).waitFor()
    await page.getByRole('button', { name: 'Generate Invite Code' }).click()
    await expectToast(page, 'Invite created')
    const copy = page.getByRole('button', { name: /^Copy invite code / }).first()
    await copy.waitFor()
    aliceInviteForBob = ((await copy.getAttribute('aria-label')) ?? '').replace('Copy invite code ', '')
    expect(aliceInviteForBob).toMatch(/^[A-Z0-9]{12}$/)
    await copy.click()
    await page.getByRole('button', { name: 'Copied' }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(aliceInviteForBob)
    await screenshot(page, 'journey-desktop-invites')
    await expectAccessible(page, 'invites')
    // "Copied" lasts two seconds
    await page.getByRole('button', { name: 'Copied' }).waitFor({ state: 'detached', timeout: 4000 })
  })

  it('a friend signs up with that invite, and the invite shows as used', async () => {
    bob = await open()
    await logInThroughEmail(bob.page, BOB, aliceInviteForBob)
    await alice.page.reload()
    await alice.page.getByText('Claimed').waitFor()
    await alice.page.getByText(/Used on /).waitFor()
  })

  it('members find and follow each other', async () => {
    const { page } = bob
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discover' }).click()
    await page.getByRole('heading', { name: 'Discover' }).waitFor()
    await page.getByRole('searchbox', { name: 'Search for users...' }).fill('alice')
    const results = page.getByRole('region', { name: 'Search Results' })
    await results.getByRole('link', { name: /@alice/ }).waitFor()
    await screenshot(page, 'journey-desktop-discover-search')
    await expectAccessible(page, 'discover')
    // Signing up with Alice's invite made Bob follow her.
    await results.getByRole('button', { name: /^Following / }).waitFor()

    await alice.page.goto('/profile/bob')
    await alice.page.getByText('@bob', { exact: true }).first().waitFor()
    await alice.page.getByRole('button', { name: /^Follow / }).click()
    await alice.page.getByRole('button', { name: /^Following / }).waitFor()
    await alice.page.reload()
    await alice.page.getByRole('button', { name: /^Following / }).waitFor()
  })

  it('a member posts with an image, a poll and a mention', async () => {
    const { page } = alice
    await page.goto('/')
    await page.getByRole('textbox', { name: "What's happening?" }).first().fill('Lunch vote, @bob! Tea or coffee after?')

    // One click opens the file picker; the picked file uploads at once and the uploader closes itself.
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Add images' }).first().click()
    await (await chooser).setFiles({
      name: 'lunch.png',
      mimeType: 'image/png',
      buffer: makePng(),
    })
    await page.getByRole('img', { name: 'Attached image 1' }).waitFor()
    // The thumbnail is drawn from the picked file: the upload URL answers only PUT.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img[alt="Attached image 1"]')
      return img?.complete && img.naturalWidth > 0
    })

    await page.getByRole('button', { name: 'Add poll' }).first().click()
    await page.getByPlaceholder('Option 1').fill('Tea')
    await page.getByPlaceholder('Option 2').fill('Coffee')
    await page.getByRole('button', { name: 'Post', exact: true }).first().click()
    // The image has no description: the reminder (on by default) asks once first.
    await page.getByRole('dialog', { name: 'Add image descriptions?' }).getByRole('button', { name: 'Post anyway' }).click()
    await expectToast(page, 'Post created')

    const card = page.getByRole('article').filter({ hasText: 'Lunch vote,' }).first()
    await card.waitFor()
    await card.getByRole('img', { name: /Image 1 of 1/ }).waitFor()
    await card.getByRole('link', { name: '@bob' }).waitFor()
    const href = await card.getByRole('link', { name: /ago|just now/ }).first().getAttribute('href')
    pollPostId = Number(href?.split('/').pop())
    expect(pollPostId).toBeGreaterThan(0)
    await screenshot(page, 'journey-desktop-home-posted')
  })

  it('the friend votes, likes, reposts and replies', async () => {
    const { page } = bob
    await page.goto('/')
    const card = page.getByRole('article').filter({ hasText: 'Lunch vote,' }).first()
    await card.waitFor()
    await card.getByRole('button', { name: 'Vote for Tea' }).click()
    const tea = card.getByRole('listitem').filter({ hasText: 'Tea' })
    await tea.getByText('100%').waitFor()
    await tea.getByText('(your vote)').waitFor()

    await card.getByRole('button', { name: 'Like (0)' }).click()
    await card.getByRole('button', { name: 'Unlike (1)' }).waitFor()
    await card.getByRole('button', { name: 'Repost (0)' }).click()
    await page.getByRole('menuitem', { name: 'Repost' }).click()
    await card.getByRole('button', { name: 'Undo repost (1)' }).waitFor()

    await card.getByRole('button', { name: 'Reply (0)' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create Post' })
    await dialog.getByRole('textbox', { name: 'Post your reply' }).fill('Tea, obviously.')
    await screenshot(page, 'journey-desktop-reply-dialog')
    await dialog.getByRole('button', { name: 'Reply', exact: true }).click()
    await expectToast(page, 'Post created')
    await dialog.waitFor({ state: 'detached' })

    // everything stuck on the server
    await page.reload()
    const again = page.getByRole('article').filter({ hasText: 'Lunch vote,' }).first()
    await again.getByRole('button', { name: 'Unlike (1)' }).waitFor()
    await again.getByRole('button', { name: /^Reply \(1\)/ }).waitFor()
    // the member's own repost is in the Friends feed as "<display name> reposted"
    await page.getByText(/ reposted$/).first().waitFor()
  })

  it('the author sees the notifications, and opening them clears the badge', async () => {
    const { page } = alice
    await page.goto('/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: /Notifications.*unread/ }).waitFor()
    await nav.getByRole('link', { name: /Notifications/ }).click()
    for (const text of ['followed you', 'liked your post', 'reposted your post', 'replied to your post']) {
      await page.getByText(text).first().waitFor()
    }
    await screenshot(page, 'journey-desktop-notifications')
    await expectAccessible(page, 'notifications')
    // Opening Notifications sees what it shows: the badge and the title's count clear at once.
    await expect.poll(async () => (await nav.getByRole('link', { name: /Notifications/ }).textContent()) ?? '').not.toContain('unread')
    await expect.poll(() => page.title()).toBe('Murmur')

    await page.getByRole('button', { name: /liked your post/ }).first().click()
    await page.getByRole('heading', { name: 'Thread' }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/post/${pollPostId}`)
  })

  it('a thread shows the post and its replies; like and share work there', async () => {
    const { page } = alice
    await page.goto(`/post/${pollPostId}`)
    await page.getByText('Tea, obviously.').waitFor()
    const main = page.getByRole('article').filter({ hasText: 'Lunch vote,' }).first()
    await main.getByRole('button', { name: 'Like (1)' }).click()
    await main.getByRole('button', { name: 'Unlike (2)' }).waitFor()
    await main.getByRole('button', { name: 'Share' }).click()
    await expectToast(page, 'Link copied')
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/post/${pollPostId}`)
    await screenshot(page, 'journey-desktop-thread')
    await expectAccessible(page, 'thread')

    // the reply's own thread shows the post above it
    await page.getByRole('article').filter({ hasText: 'Tea, obviously.' }).getByRole('link', { name: /ago|just now/ }).click()
    await page.getByRole('region', { name: 'Earlier in the thread' }).getByText('Lunch vote,', { exact: false }).waitFor()
  })

  it('a member edits the profile', async () => {
    const { page } = alice
    await page.goto('/profile/alice')
    await page.getByRole('button', { name: 'Edit Profile' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' })
    await dialog.getByLabel('Display Name').fill('Alice Example')
    await dialog.getByLabel('Bio').fill('Tea person.')
    await dialog.getByLabel('Website').fill('https://alice.example.com')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expectToast(page, 'Profile updated')
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('heading', { name: 'Alice Example', level: 2 }).waitFor()
    const site = page.getByRole('link', { name: 'alice.example.com' })
    expect(await site.getAttribute('target')).toBe('_blank')
    expect(await site.getAttribute('rel')).toContain('noopener')
    await page.getByText(/^Joined \w+ \d{4}$/).waitFor()
    await page.getByRole('tab', { name: 'Media' }).click()
    await page.getByRole('img', { name: /Image 1 of 1/ }).waitFor()
    await page.getByRole('tab', { name: 'Likes' }).click()
    await page.getByRole('tabpanel').getByText('Lunch vote,', { exact: false }).waitFor()

    // avatar and header through Uppy, one file each
    const profileImages = page.locator('section[aria-label="Profile"] img[src^="/objects/"]')
    for (const [button, kind, shown] of [
      ['Change profile picture', 'avatar', 1],
      ['Change header', 'header', 2],
    ] as const) {
      const chooser = page.waitForEvent('filechooser')
      await page.getByRole('button', { name: button }).click()
      await (await chooser).setFiles({
        name: `${kind}.png`,
        mimeType: 'image/png',
        buffer: makePng(kind === 'avatar' ? 96 : 300, kind === 'avatar' ? 96 : 100),
      })
      await expectToast(page, 'Image updated')
      // The first upload's toast may still be up: the picture itself says this one is saved.
      await expect.poll(() => profileImages.count()).toBe(shown)
    }
    await page.reload()
    await page.getByRole('heading', { name: 'Alice Example', level: 2 }).waitFor()
    expect(await profileImages.count()).toBe(2)
    await screenshot(page, 'journey-desktop-profile')
    await expectAccessible(page, 'profile')
  })

  it('an unknown path shows the 404 page', async () => {
    await alice.page.goto('/no/such/page')
    await alice.page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
  })

  it('logout returns to the landing page', async () => {
    const { page } = alice
    await page.goto('/')
    await page.getByRole('button', { name: /User menu/ }).click()
    await page.getByRole('menuitem', { name: 'Log out' }).click()
    await page.getByRole('heading', { name: 'The human network' }).waitFor()
    await page.goto('/invites')
    await page.getByRole('heading', { name: 'The human network' }).waitFor()
  })

  it('the key steps work at a 390×844 mobile viewport', async () => {
    const mobile = await open(MOBILE)
    const { page } = mobile
    await logInThroughEmail(page, BOB)
    await page.getByRole('article').filter({ hasText: 'Lunch vote,' }).first().waitFor()
    await screenshot(page, 'journey-mobile-home')
    await expectAccessible(page, 'mobile home')

    await page.getByRole('button', { name: 'New Post' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create Post' })
    await dialog.getByRole('textbox', { name: "What's happening?" }).fill('Posting from my phone')
    await dialog.getByRole('button', { name: 'Post', exact: true }).click()
    await expectToast(page, 'Post created')
    const phonePost = page.getByRole('article').filter({ hasText: 'Posting from my phone' }).first()
    await phonePost.waitFor()
    // on a phone the author's own card offers Delete in More actions (the confirm() is accepted
    // by the dialog handler)
    await phonePost.getByRole('button', { name: 'More actions' }).click()
    await page.getByRole('menuitem', { name: 'Delete post' }).click()
    await expectToast(page, 'Post deleted')
    await phonePost.waitFor({ state: 'detached' })

    const bottom = page.getByRole('navigation', { name: 'Bottom' })
    expect(await bottom.getByRole('link', { name: /Invites/ }).count()).toBe(0)
    await bottom.getByRole('link', { name: /Discover/ }).click()
    await page.getByRole('region', { name: 'Trending' }).waitFor()
    await screenshot(page, 'journey-mobile-discover')
    await expectAccessible(page, 'mobile discover')

    await bottom.getByRole('link', { name: /Notifications/ }).click()
    await page.getByRole('heading', { name: /Notifications/ }).waitFor()
    // Alice followed Bob and mentioned him in her post
    await page.getByText('mentioned you').first().waitFor()
    await page.getByText('followed you').first().waitFor()
    await screenshot(page, 'journey-mobile-notifications')

    await bottom.getByRole('link', { name: /Profile/ }).click()
    await page.getByRole('main').getByText('@bob', { exact: true }).first().waitFor()
    await screenshot(page, 'journey-mobile-profile')
    await expectAccessible(page, 'mobile profile')

    await page.goto(`/post/${pollPostId}`)
    await page.getByText('Tea, obviously.').waitFor()
    await screenshot(page, 'journey-mobile-thread')

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)

    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Log out' }).click()
    await page.getByRole('heading', { name: 'The human network' }).waitFor()
    await mobile.context.close()
  })

  it('no screen broke the Content-Security-Policy', () => {
    expect(cspViolations).toEqual([])
  })
})

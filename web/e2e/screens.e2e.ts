// Every screen in a real browser against the built app, with the API answered from fixtures:
// layout, accessibility (axe) and screenshots, without needing the server.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import {
  DESKTOP,
  MOBILE,
  PHONE,
  SCREENSHOT_DIR,
  describeViolations,
  launchBrowser,
  launchPersistentBrowser,
  newContext,
  screenshot,
  seriousA11yViolations,
} from './support/browser'
import { fixtureHandler } from './support/fixtures'
import { expectFailures } from './support/guard'
import { makePng } from './support/png.mjs'
import { startStaticServer } from './support/static-server'

let browser: Browser
let site: Awaited<ReturnType<typeof startStaticServer>>

beforeAll(async () => {
  site = await startStaticServer()
  browser = await launchBrowser()
  console.log(`Screenshots: ${SCREENSHOT_DIR}`)
})

afterAll(async () => {
  await browser?.close()
  await site?.close()
})

/** Without the server's data block the app asks who is there; a visitor is told 401. */
const VISITOR_ASKS_WHO = { path: /^\/api\/auth\/me$/, status: 401 }

async function openPage(viewport: typeof DESKTOP, loggedIn: boolean, colorScheme: 'light' | 'dark' = 'light') {
  const context = await newContext(browser, site.url, viewport, { colorScheme })
  await context.route('**/api/**', fixtureHandler({ loggedIn }))
  if (!loggedIn) expectFailures(context, VISITOR_ASKS_WHO)
  const page = await context.newPage()
  // Console errors, failed requests and broken images fail every test (support/guard.ts);
  // here, also: nothing may leave the origin (fonts, video and images are all served by Murmur).
  const errors: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== site.url) errors.push(`external request: ${request.url()}`)
  })
  return { context, page, errors }
}

async function expectAccessible(page: Page, screen: string) {
  const violations = await seriousA11yViolations(page)
  expect(violations, `${screen}:\n${describeViolations(violations)}`).toEqual([])
}

async function noHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

const memberScreens: { name: string; path: string; ready: (page: Page) => Promise<unknown> }[] = [
  { name: 'home', path: '/', ready: (p) => p.getByText('Team lunch on Friday', { exact: false }).waitFor() },
  { name: 'discover', path: '/discover', ready: (p) => p.getByRole('link', { name: '#RustLang 23 people posting' }).waitFor() },
  {
    name: 'discover-posts',
    path: '/discover',
    ready: async (p) => {
      await p.getByRole('tab', { name: 'Posts' }).click()
      await p.getByRole('searchbox', { name: 'Search posts...' }).fill('borrow')
      await p.locator('mark').first().waitFor()
    },
  },
  { name: 'tag', path: '/tag/RustLang', ready: (p) => p.getByText('12 posts · 5 people this week').waitFor() },
  { name: 'notifications', path: '/notifications', ready: (p) => p.getByText('replied to your post').waitFor() },
  { name: 'invites', path: '/invites', ready: (p) => p.getByText('K7Q2M9X4TB3H').waitFor() },
  { name: 'thread', path: '/post/6', ready: (p) => p.getByText('Welcome! Glad you made it').waitFor() },
  { name: 'thread-deleted-parent', path: '/post/10', ready: (p) => p.getByText('This post was deleted').waitFor() },
  { name: 'profile', path: '/profile/alice', ready: (p) => p.getByText('Joined March 2026').waitFor() },
  { name: 'other-profile', path: '/profile/bob', ready: (p) => p.getByRole('button', { name: /^Follow/ }).waitFor() },
  { name: 'not-found', path: '/nope/nothing', ready: (p) => p.getByRole('heading', { name: '404 Page Not Found' }).waitFor() },
  { name: 'thread-removed', path: '/post/12', ready: (p) => p.getByText('Post unavailable').waitFor() },
  { name: 'profile-blocked', path: '/profile/carol', ready: (p) => p.getByText('You blocked @carol').waitFor() },
  { name: 'profile-blocked-by', path: '/profile/dave', ready: (p) => p.getByText("You can't view this profile").waitFor() },
  { name: 'settings', path: '/settings', ready: (p) => p.getByText('Muted until you unmute').waitFor() },
  {
    name: 'moderation',
    path: '/moderation',
    ready: async (p) => {
      await p.getByText('Uses my photos and name').waitFor()
      await p.getByText('You will regret this.').waitFor()
    },
  },
  { name: 'moderation-log', path: '/moderation/log', ready: (p) => p.getByText('Spam after a warning').waitFor() },
  { name: 'invite-tree', path: '/moderation/members/2', ready: (p) => p.getByText('Invited 2 members').waitFor() },
  { name: 'messages', path: '/messages/7', ready: (p) => p.getByText('Saturday at 10?', { exact: false }).waitFor() },
  { name: 'messages-list', path: '/messages', ready: (p) => p.getByText('Who’s bringing the plates?', { exact: false }).waitFor() },
]

// Every member screen at the narrowest phone and at desktop width, light and dark: laid out
// without sideways scrolling, accessible (axe), and a screenshot to look at.
describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('member screens at %s size', (size, viewport) => {
  for (const scheme of ['light', 'dark'] as const) {
    for (const screen of memberScreens) {
      it(`shows ${screen.name} (${scheme})`, async () => {
        const { context, page, errors } = await openPage(viewport, true, scheme)
        await page.goto(screen.path)
        await screen.ready(page)
        await noHorizontalScroll(page)
        await screenshot(page, `${size}-${scheme}-${screen.name}`)
        await expectAccessible(page, `${screen.name} (${scheme})`)
        expect(errors).toEqual([])
        await context.close()
      })
    }
  }
})

describe.each([
  ['desktop', DESKTOP],
  ['mobile', MOBILE],
] as const)('screens at %s size', (size, viewport) => {
  it('shows the landing page with its video, and the login dialog', async () => {
    const { context, page, errors } = await openPage(viewport, false)
    await page.goto('/anything/at/all')
    await page.getByRole('heading', { name: 'The human network' }).waitFor()
    await page.getByText('Real voices. Real connections. No bots.').waitFor()
    const video = page.locator('video')
    expect(await video.getAttribute('poster')).toBe('/landing-poster.jpg')
    expect(await video.evaluate((v: HTMLVideoElement) => v.muted && v.loop && v.playsInline)).toBe(true)
    await noHorizontalScroll(page)
    await screenshot(page, `${size}-landing`)
    await expectAccessible(page, 'landing')

    await page.getByRole('button', { name: 'Login' }).click()
    await page.getByRole('dialog', { name: 'Welcome back' }).waitFor()
    await screenshot(page, `${size}-login-dialog`)
    await expectAccessible(page, 'login dialog')
    expect(errors).toEqual([])
    await context.close()
  })

  it('opens the login dialog from /?login=1 and shows the sent state', async () => {
    const { context, page } = await openPage(viewport, false)
    await page.goto('/?login=1')
    await page.getByRole('dialog', { name: 'Welcome back' }).waitFor()
    await page.getByLabel('Email', { exact: true }).fill('alice@example.com')
    await page.getByRole('button', { name: 'Send magic link' }).click()
    await page.getByRole('heading', { name: 'Check your email' }).waitFor()
    await screenshot(page, `${size}-login-sent`)
    await context.close()
  })

  it('shows the verification screen failing', async () => {
    const { context, page } = await openPage(viewport, false)
    expectFailures(context, { path: /^\/api\/auth\/verify/, status: 400 })
    await page.goto('/auth/verify?token=bad')
    await page.getByRole('heading', { name: 'Verification failed' }).waitFor()
    await page.getByText('Invalid or expired link').waitFor()
    await screenshot(page, `${size}-verify-failed`)
    await expectAccessible(page, 'verify')
    await context.close()
  })

  it('shows home in the dark theme without a flash', async () => {
    const { context, page } = await openPage(viewport, true, 'light')
    await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'dark'))
    await page.goto('/')
    // theme-init.js runs before the app: the class is there as soon as the document is parsed
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    await page.getByText('Team lunch on Friday', { exact: false }).waitFor()
    await screenshot(page, `${size}-home-dark`)
    await expectAccessible(page, 'home (dark)')
    await context.close()
  })

  it('switches the theme from the toggle and remembers it', async () => {
    const { context, page } = await openPage(viewport, true)
    await page.goto('/')
    await page.getByText('Team lunch on Friday', { exact: false }).waitFor()
    await page.getByRole('button', { name: 'Toggle theme' }).click()
    await page.getByRole('menuitem', { name: 'Dark' }).click()
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('dark')
    await page.reload()
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true)
    await context.close()
  })

  it('opens the Create Post dialog', async () => {
    const { context, page } = await openPage(viewport, true)
    await page.goto('/')
    await page.getByRole('button', { name: 'New Post' }).click()
    await page.getByRole('dialog', { name: 'Create Post' }).waitFor()
    await screenshot(page, `${size}-create-post`)
    await expectAccessible(page, 'create post')
    await context.close()
  })
})

describe('reduced motion', () => {
  it('shows only the poster image, no video', async () => {
    const context = await newContext(browser, site.url, DESKTOP, { reducedMotion: 'reduce' })
    await context.route('**/api/**', fixtureHandler({ loggedIn: false }))
    expectFailures(context, VISITOR_ASKS_WHO)
    const page = await context.newPage()
    await page.goto('/')
    await page.getByRole('heading', { name: 'The human network' }).waitFor()
    expect(await page.locator('video').count()).toBe(0)
    expect(await page.locator('img[src="/landing-poster.jpg"]').count()).toBe(1)
    await context.close()
  })
})

describe('composing', () => {
  it('attaches an image through Uppy, adds a poll and posts', async () => {
    const { context, page, errors } = await openPage(DESKTOP, true)
    const puts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(new URL(request.url()).pathname)
    })
    await page.goto('/')
    await page.getByRole('textbox', { name: "What's happening?" }).first().fill('Picture day @bob')
    // One click opens the file picker; the picked file uploads at once and the uploader closes itself.
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Add images' }).first().click()
    await (await chooser).setFiles({ name: 'pic.png', mimeType: 'image/png', buffer: makePng() })
    const thumbnail = page.getByRole('img', { name: 'Attached image 1' })
    await thumbnail.waitFor()
    // The thumbnail shows the picked file itself: the upload URL only takes PUT.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img[alt="Attached image 1"]')
      return img?.complete && img.naturalWidth > 0
    })
    // The picked file at first, then a small copy of it that a draft can keep.
    expect(await thumbnail.getAttribute('src')).toMatch(/^(blob|data):/)
    expect(puts).toHaveLength(1)
    expect(puts[0]).toMatch(/^\/api\/objects\/uploads\/test-/)

    await page.getByRole('button', { name: 'Add poll' }).first().click()
    await page.getByPlaceholder('Option 1').fill('Yes')
    await page.getByPlaceholder('Option 2').fill('No')
    await screenshot(page, 'desktop-composer-image-and-poll')
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/posts') && r.method() === 'POST')
    await page.getByRole('button', { name: 'Post', exact: true }).first().click()
    // The image has no description: the reminder (on by default) asks once first.
    await page.getByRole('dialog', { name: 'Add image descriptions?' }).getByRole('button', { name: 'Post anyway' }).click()
    const body = (await posted).postDataJSON() as { content: string; imageUrls: string[]; pollOptions: string[] }
    expect(body.content).toBe('Picture day @bob')
    expect(body.imageUrls).toEqual([puts[0]])
    expect(body.pollOptions).toEqual(['Yes', 'No'])
    await page.getByRole('region', { name: /^Notifications \(F8\)/ }).getByText('Post created', { exact: true }).waitFor()
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('what members meet every day', () => {
  it('draws a deleted post above a reply as a muted card with no actions', async () => {
    const { context, page } = await openPage(DESKTOP, true)
    await page.goto('/post/10')
    const deleted = page.getByRole('article', { name: 'Deleted post' })
    await deleted.getByText('This post was deleted').waitFor()
    expect(await deleted.getByRole('button').count()).toBe(0)
    expect(await deleted.getByRole('link').count()).toBe(0)
    await page.getByText('Still here, even if the post above is gone.').waitFor()
    await context.close()
  })

  it("serves each profile tab from the server: Replies and Media show the member's own", async () => {
    const { context, page } = await openPage(DESKTOP, true)
    await page.goto('/profile/alice')
    await page.getByText('Joined March 2026').waitFor()
    await page.getByRole('tab', { name: 'Replies' }).click()
    await page.getByRole('tabpanel').getByText('Welcome! Glad you made it').waitFor()
    await page.getByRole('tab', { name: 'Media' }).click()
    await page.getByRole('tabpanel').getByText('My desk this morning.').waitFor()
    await page.goto('/profile/bob')
    await page.getByRole('tab', { name: 'Replies' }).click()
    await page.getByRole('tabpanel').getByText('No replies yet.').waitFor()
    await context.close()
  })

  it("offers a poll's choices as buttons, with its total, before the member votes", async () => {
    const { context, page } = await openPage(DESKTOP, true)
    await page.goto('/')
    const poll = page.getByRole('group', { name: 'Poll' }).first()
    await poll.getByRole('button', { name: 'Vote for Tacos', exact: true }).waitFor()
    await poll.getByRole('button', { name: 'Vote for Ramen', exact: true }).waitFor()
    await poll.getByRole('button', { name: 'Vote for Pizza', exact: true }).waitFor()
    expect(await poll.getByText('75%').count()).toBe(0)
    await poll.getByText('4 votes', { exact: false }).waitFor()
    await context.close()
  })

  it('says "Post not found" only for a missing post, and offers Retry when loading failed', async () => {
    const { context, page } = await openPage(DESKTOP, true)
    expectFailures(
      context,
      { path: /^\/api\/posts\/999\/thread$/, status: 404 },
      { path: /^\/api\/posts\/500\/thread$/, status: 500 },
      { path: /^\/api\/users\/broken$/, status: 500 },
      { path: /^\/api\/users\/nobody$/, status: 404 },
    )
    await page.goto('/post/999')
    await page.getByText('Post not found').waitFor()
    await page.goto('/post/500')
    await page.getByText('This post could not be loaded.').waitFor()
    expect(await page.getByText(/500/).count()).toBe(0)
    const retried = page.waitForRequest((r) => r.url().endsWith('/api/posts/500/thread'))
    await page.getByRole('button', { name: 'Retry' }).click()
    await retried
    await page.goto('/profile/nobody')
    await page.getByText('User not found.').waitFor()
    await page.goto('/profile/broken')
    await page.getByText('This profile could not be loaded.').waitFor()
    await page.getByRole('button', { name: 'Retry' }).waitFor()
    await screenshot(page, 'desktop-profile-load-error')
    await context.close()
  })

  it('pages a thread past its first 200 replies with "Load more replies"', async () => {
    const { context, page } = await openPage(DESKTOP, true)
    await page.goto('/post/11')
    await page.getByText('Sandwich number 200', { exact: true }).waitFor()
    expect(await page.getByText('Sandwich number 201', { exact: true }).count()).toBe(0)
    await page.getByRole('button', { name: 'Load more replies' }).click()
    await page.getByText('Sandwich number 203', { exact: true }).waitFor()
    // 3 came after the 200, less than a page: nothing more to load
    expect(await page.getByRole('button', { name: 'Load more replies' }).count()).toBe(0)
    await context.close()
  })

  it('explains an unsafe website in Edit Profile before sending it', async () => {
    const { context, page } = await openPage(PHONE, true)
    await page.goto('/profile/alice')
    await page.getByRole('button', { name: 'Edit Profile' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' })
    await dialog.getByLabel('Website').fill('https://bank.example@evil.example')
    await dialog.getByText("Website cannot contain a user name or password").waitFor()
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true)
    await dialog.getByLabel('Website').fill('https:alert(1)')
    await dialog.getByText('Website must be a web address starting with http:// or https://').waitFor()
    await screenshot(page, 'phone-edit-profile-invalid')
    await expectAccessible(page, 'edit profile (invalid)')
    await context.close()
  })

  it('is installable as an app: a manifest with icons that load, and no installability errors', async () => {
    // A profile of its own: Chrome never offers to install from an incognito context.
    const profile = mkdtempSync(join(tmpdir(), 'murmur-install-'))
    const context = await launchPersistentBrowser(profile)
    try {
      await context.route('**/api/**', fixtureHandler({ loggedIn: false }))
      expectFailures(context, VISITOR_ASKS_WHO)
      const page = await context.newPage()
      await page.goto(`${site.url}/`)
      await page.getByRole('heading', { name: 'The human network' }).waitFor()
      const href = await page.locator('link[rel="manifest"]').getAttribute('href')
      expect(href).toBe('/manifest.webmanifest')
      const manifest = (await (await context.request.get(`${site.url}${href}`)).json()) as { icons: { src: string; sizes: string }[] }
      expect(manifest).toMatchObject({ name: 'Murmur', display: 'standalone', start_url: '/', theme_color: '#6d28d9' })
      for (const icon of manifest.icons) {
        const response = await context.request.get(`${site.url}${icon.src}`)
        expect(response.headers()['content-type']).toBe('image/png')
        expect((await response.body()).length).toBeGreaterThan(1000)
      }
      // What Lighthouse's installability audit asked Chrome (the audit is gone from Lighthouse 12).
      const cdp = await context.newCDPSession(page)
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: { errorId: string }[]
      }
      expect(installabilityErrors).toEqual([])
    } finally {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  })
})

describe('mobile layout', () => {
  it('has a top bar with menu, logo and theme toggle, a compose button and a bottom bar with Messages, without Invites', async () => {
    const { context, page } = await openPage(MOBILE, true)
    await page.goto('/')
    await page.getByRole('button', { name: 'Open menu' }).waitFor()
    await page.getByRole('button', { name: 'Toggle theme' }).first().waitFor()
    const bottom = page.getByRole('navigation', { name: 'Bottom' })
    expect(await bottom.getByRole('link').count()).toBe(5)
    await bottom.getByRole('link', { name: /Messages/ }).waitFor()
    expect(await bottom.getByRole('link', { name: 'Invites' }).count()).toBe(0)
    await page.getByRole('button', { name: 'Open menu' }).click()
    const menu = page.getByRole('dialog', { name: 'Menu' })
    await menu.waitFor()
    // The sheet marks the page the member is on, as the sidebar does.
    expect(await menu.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page')
    expect(await menu.getByRole('link', { name: 'Discover' }).getAttribute('aria-current')).toBeNull()
    await screenshot(page, 'mobile-menu')
    await expectAccessible(page, 'mobile menu')
    await context.close()
  })
})

describe('safety', () => {
  describe.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('at %s size', (size, viewport) => {
    for (const scheme of ['light', 'dark'] as const) {
      it(`mutes, blocks and reports from a post's menu by keyboard (${scheme})`, async () => {
        const { context, page, errors } = await openPage(viewport, true, scheme)
        await page.goto('/')
        const card = page.getByRole('article').filter({ hasText: 'Team lunch on Friday' }).first()
        const more = card.getByRole('button', { name: 'More actions', exact: true })
        await more.focus()
        await page.keyboard.press('Enter')
        const menu = page.getByRole('menu')
        const mute = menu.getByRole('group', { name: 'Mute @bob' })
        await mute.getByRole('menuitem', { name: 'For 1 hour' }).waitFor()
        await page.keyboard.press('ArrowDown')
        expect(await mute.getByRole('menuitem', { name: 'For 1 hour' }).evaluate((item) => item === document.activeElement)).toBe(true)
        // the whole menu on screen, at the narrowest phone too
        const box = await menu.boundingBox()
        expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true)
        await noHorizontalScroll(page)
        await screenshot(page, `${size}-${scheme}-member-menu`)
        await expectAccessible(page, `member menu (${scheme})`)
        await page.keyboard.press('Escape')
        await menu.waitFor({ state: 'detached' })
        // focus comes back a moment after the menu or dialog has gone
        await expect.poll(() => more.evaluate((button) => button === document.activeElement)).toBe(true)

        await page.keyboard.press('Enter')
        await menu.getByRole('menuitem', { name: 'Block @bob' }).click()
        const block = page.getByRole('dialog', { name: 'Block @bob?' })
        await block.getByText("They can't follow you or interact with you").waitFor()
        await screenshot(page, `${size}-${scheme}-block-dialog`)
        await expectAccessible(page, `block dialog (${scheme})`)
        await block.getByRole('button', { name: 'Cancel' }).click()
        await block.waitFor({ state: 'detached' })
        await expect.poll(() => more.evaluate((button) => button === document.activeElement)).toBe(true)

        await more.click()
        await menu.getByRole('menuitem', { name: 'Report post' }).click()
        const report = page.getByRole('dialog', { name: 'Report post' })
        await report.getByRole('button', { name: 'Send report' }).click()
        await report.getByText('Choose a reason').waitFor()
        await report.getByRole('radio', { name: 'Spam' }).check()
        await report.getByLabel('Comment (optional)').fill('The same link under every post')
        await noHorizontalScroll(page)
        await screenshot(page, `${size}-${scheme}-report-dialog`)
        await expectAccessible(page, `report dialog (${scheme})`)
        await report.getByRole('button', { name: 'Send report' }).click()
        await page.getByRole('region', { name: /^Notifications \(F8\)/ }).getByText('Report sent', { exact: true }).waitFor()
        await report.waitFor({ state: 'detached' })
        expect(errors).toEqual([])
        await context.close()
      })
    }

    it('asks for a reason before a moderation action', async () => {
      const { context, page } = await openPage(viewport, true)
      await page.goto('/moderation')
      const group = page.getByRole('article', { name: 'Member @dave' })
      await group.getByRole('button', { name: 'Suspend' }).click()
      const dialog = page.getByRole('dialog', { name: 'Suspend @dave' })
      await dialog.getByRole('radio', { name: '7 days' }).check()
      await dialog.getByRole('button', { name: 'Suspend @dave' }).click()
      await dialog.getByText('Give a reason: it is shown in the moderation log').waitFor()
      await noHorizontalScroll(page)
      await screenshot(page, `${size}-moderation-suspend-dialog`)
      await expectAccessible(page, 'suspend dialog')
      await context.close()
    })

    it("says a suspended member's account is suspended", async () => {
      const { context, page } = await openPage(viewport, true)
      expectFailures(context, { path: /^\/api\/users\/cheapfollows$/, status: 404 })
      await page.goto('/profile/cheapfollows')
      await page.getByText('This account is suspended').waitFor()
      await screenshot(page, `${size}-profile-suspended`)
      await context.close()
    })
  })
})

// Every screen in a real browser against the built app, with the API answered from fixtures:
// layout, accessibility (axe) and screenshots, without needing the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
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
import { fixtureHandler } from './support/fixtures'
import { makePng } from './support/png'
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

async function openPage(viewport: typeof DESKTOP, loggedIn: boolean, colorScheme: 'light' | 'dark' = 'light') {
  const context = await newContext(browser, site.url, viewport, { colorScheme })
  await context.route('**/api/**', fixtureHandler({ loggedIn }))
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  // nothing may leave the origin: fonts, video and images are all served by Murmur
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== site.url) errors.push(`external request: ${request.url()}`)
  })
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('status of 4')) errors.push(message.text())
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
  { name: 'discover', path: '/discover', ready: (p) => p.getByRole('heading', { name: 'Who to follow' }).waitFor() },
  { name: 'notifications', path: '/notifications', ready: (p) => p.getByText('replied to your post').waitFor() },
  { name: 'invites', path: '/invites', ready: (p) => p.getByText('K7Q2M9X4TB3H').waitFor() },
  { name: 'thread', path: '/post/6', ready: (p) => p.getByText('Welcome! Glad you made it').waitFor() },
  { name: 'profile', path: '/profile/alice', ready: (p) => p.getByText('Joined March 2026').waitFor() },
  { name: 'other-profile', path: '/profile/bob', ready: (p) => p.getByRole('button', { name: /^Follow/ }).waitFor() },
  { name: 'not-found', path: '/nope/nothing', ready: (p) => p.getByRole('heading', { name: '404 Page Not Found' }).waitFor() },
]

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
    await page.getByRole('button', { name: 'Already have an account? Log in' }).click()
    await page.getByLabel('Email', { exact: true }).fill('alice@example.com')
    await page.getByRole('button', { name: 'Send magic link' }).click()
    await page.getByRole('heading', { name: 'Check your email' }).waitFor()
    await screenshot(page, `${size}-login-sent`)
    await context.close()
  })

  it('shows the verification screen failing', async () => {
    const { context, page } = await openPage(viewport, false)
    await page.goto('/auth/verify?token=bad')
    await page.getByRole('heading', { name: 'Verification failed' }).waitFor()
    await page.getByText('Invalid or expired link').waitFor()
    await screenshot(page, `${size}-verify-failed`)
    await expectAccessible(page, 'verify')
    await context.close()
  })

  for (const screen of memberScreens) {
    it(`shows ${screen.name}`, async () => {
      const { context, page, errors } = await openPage(viewport, true)
      await page.goto(screen.path)
      await screen.ready(page)
      await noHorizontalScroll(page)
      await screenshot(page, `${size}-${screen.name}`)
      await expectAccessible(page, screen.name)
      expect(errors).toEqual([])
      await context.close()
    })
  }

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

describe('the narrowest phones', () => {
  it('never scroll sideways at 360 px', async () => {
    const { context, page } = await openPage({ width: 360, height: 740 }, true)
    for (const screen of memberScreens) {
      await page.goto(screen.path)
      await screen.ready(page)
      await noHorizontalScroll(page)
    }
    await context.close()
  })
})

describe('reduced motion', () => {
  it('shows only the poster image, no video', async () => {
    const context = await newContext(browser, site.url, DESKTOP, { reducedMotion: 'reduce' })
    await context.route('**/api/**', fixtureHandler({ loggedIn: false }))
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
    await page.getByRole('button', { name: 'Add images' }).first().click()
    await page.locator('.uppy-Dashboard-input').first().setInputFiles({ name: 'pic.png', mimeType: 'image/png', buffer: makePng() })
    await screenshot(page, 'desktop-uppy-dashboard')
    await page.locator('.uppy-StatusBar-actionBtn--upload').click()
    await page.locator('.uppy-StatusBar-actionBtn--done').click()
    await page.getByRole('img', { name: 'Attached image 1' }).waitFor()
    expect(puts).toHaveLength(1)
    expect(puts[0]).toMatch(/^\/api\/objects\/uploads\/test-/)

    await page.getByRole('button', { name: 'Add poll' }).first().click()
    await page.getByPlaceholder('Option 1').fill('Yes')
    await page.getByPlaceholder('Option 2').fill('No')
    const posted = page.waitForRequest((r) => r.url().endsWith('/api/posts') && r.method() === 'POST')
    await page.getByRole('button', { name: 'Post', exact: true }).first().click()
    const body = (await posted).postDataJSON() as { content: string; imageUrls: string[]; pollOptions: string[] }
    expect(body.content).toBe('Picture day @bob')
    expect(body.imageUrls).toEqual([puts[0]])
    expect(body.pollOptions).toEqual(['Yes', 'No'])
    await page.getByRole('region', { name: /^Notifications \(F8\)/ }).getByText('Post created', { exact: true }).waitFor()
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('mobile layout', () => {
  it('has a top bar with menu, logo and theme toggle, a compose button and a bottom bar without Invites', async () => {
    const { context, page } = await openPage(MOBILE, true)
    await page.goto('/')
    await page.getByRole('button', { name: 'Open menu' }).waitFor()
    await page.getByRole('button', { name: 'Toggle theme' }).first().waitFor()
    const bottom = page.getByRole('navigation', { name: 'Bottom' })
    expect(await bottom.getByRole('link').count()).toBe(4)
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

// Link preview cards in a real browser against the real `murmur serve`: a local site serves an
// article with OpenGraph tags and a picture (the server may reach it because the test allows
// 127.0.0.1 with MURMUR_OUTBOUND_ALLOW, as an operator would for an internal site); Ada posts its
// link, and once the card was fetched in the background Bob sees it under her post (image, site,
// title, description, the whole card a link to the page). Ada removes it with "Remove preview".
// Screenshots at 360 and 1280 px, light and dark, go to web/test-results/screenshots
// (link-previews-…). Skips, saying why, when the server binary is missing.
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { DESKTOP, PHONE, newContext, screenshot } from './support/browser'
import { call, darkPage, expectAccessible, noHorizontalScroll, startAdaAndBob, type AdaAndBob } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'
import { makePng } from './support/png.mjs'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the link previews journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const TITLE = 'How the lighthouse keepers kept the light'
const DESCRIPTION = 'A short history of the keepers, their lamps and the long nights on the rock.'
const SITE = 'Coastal Notes'

/** A screenshot under test-results/screenshots, named for this area. */
const shot = (page: Page, name: string) => screenshot(page, `link-previews-${name}`)

/** The local site: an article page and its picture. */
async function startSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const picture = makePng(600, 314, 200)
  const server: Server = createServer((request, response) => {
    if (request.url === '/cover.png') {
      response.setHeader('Content-Type', 'image/png')
      response.end(picture)
      return
    }
    response.setHeader('Content-Type', 'text/html; charset=utf-8')
    response.end(
      `<!doctype html><html><head><title>Fallback</title>` +
        `<meta property="og:title" content="${TITLE}"><meta property="og:description" content="${DESCRIPTION}">` +
        `<meta property="og:site_name" content="${SITE}"><meta property="og:image" content="/cover.png"></head><body></body></html>`,
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** Ada's post's card on a page. */
const cardOn = (page: Page): Locator => page.getByRole('link', { name: new RegExp(TITLE) })

describe.skipIf(!hasMurmur)('link preview cards in a browser', () => {
  let net: AdaAndBob
  let site: { url: string; close: () => Promise<void> }
  let postId = 0
  let articleUrl = ''

  beforeAll(async () => {
    site = await startSite()
    articleUrl = `${site.url}/articles/keepers`
    // The one setting every outgoing fetch obeys: the local site's address is allowed.
    process.env.MURMUR_OUTBOUND_ALLOW = '127.0.0.1'
    net = await startAdaAndBob()
  })

  afterAll(async () => {
    await net?.close()
    await site?.close()
    delete process.env.MURMUR_OUTBOUND_ALLOW
  })

  it("Ada posts a link, and its card is fetched in the background", async () => {
    const post = await call(net.ada.context.request, 'POST', '/api/posts', { content: `The keepers' story: ${articleUrl}` })
    postId = post.id as number
    expect(post.card).toBeNull()
    await expect
      .poll(async () => ((await call(net.ada.context.request, 'GET', `/api/posts/${postId}/thread`)).post as { card: unknown }).card, {
        timeout: 20_000,
      })
      .toMatchObject({ url: articleUrl, title: TITLE, description: DESCRIPTION, siteName: SITE })
  })

  it('Bob sees the card under her post: the whole card a link to the page', async () => {
    const { page } = net.bob
    await page.goto('/')
    const card = cardOn(page)
    await card.waitFor()
    expect(await card.getAttribute('href')).toBe(articleUrl)
    expect(await card.getAttribute('target')).toBe('_blank')
    expect(await card.getAttribute('rel')).toBe('noopener noreferrer nofollow ugc')
    await card.getByText(SITE).waitFor()
    await card.getByText(DESCRIPTION).waitFor()
    const image = card.locator('img')
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    // Only the post's author may remove it.
    expect(await page.getByRole('button', { name: 'Remove preview' }).count()).toBe(0)
    await expectAccessible(page, 'Home with a link card')
    await shot(page, 'desktop-light')
  })

  it('reads well at 360 px and in the dark theme', async () => {
    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { context, page } = await darkPage(net.browser, net.server, net.ada, viewport)
      await page.goto(`/post/${postId}`)
      await cardOn(page).waitFor()
      await page.getByRole('button', { name: 'Remove preview' }).waitFor()
      await noHorizontalScroll(page)
      await expectAccessible(page, `the post, ${name}, dark`)
      await shot(page, `${name}-dark`)
      await context.close()
    }
    const phone = await newContext(net.browser, net.server.url, PHONE)
    await phone.addCookies(await net.bob.context.cookies())
    const page = await phone.newPage()
    await page.goto('/')
    await cardOn(page).waitFor()
    await noHorizontalScroll(page)
    await shot(page, 'phone-light')
    await phone.close()
  })

  it('Ada removes the preview from her post, and it stays removed', async () => {
    const { page } = net.ada
    await page.goto(`/post/${postId}`)
    await cardOn(page).waitFor()
    await page.getByRole('button', { name: 'Remove preview' }).click()
    await page.getByText('Preview removed').first().waitFor()
    await expect.poll(() => cardOn(page).count()).toBe(0)
    await page.reload()
    await page.getByText("The keepers' story").first().waitFor()
    expect(await cardOn(page).count()).toBe(0)
    await shot(page, 'desktop-light-removed')
  })
})

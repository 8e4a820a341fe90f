// Home's first posts are drawn twice: by the server into the document's picture of Home, so a
// slow phone shows them before the scripts arrive, and by the app's card (post-card.tsx), which
// then takes over. The server fills the card's template, which the web build renders from that
// card (src/web/cards.rs, web/scripts/card-template.mjs). This checks the two drawings are one:
// for each card the server drew, every element must have the app's tag, attributes, text,
// colour and box, at desktop and phone size, on a feed with each kind of card (own post with a
// grid and the delete button, a repost, a reply, a mention, a hashtag and a link, a liked post,
// an avatar and an initial).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core'
import { DESKTOP, MOBILE, launchBrowser, newContext, screenshot } from './support/browser'
import { expectFailures } from './support/guard'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'
import { makePng } from './support/png.mjs'

if (!hasMurmur) console.warn(`\nSKIPPED the first-cards test: no server binary at ${MURMUR_BIN}.\n`)

async function call(request: APIRequestContext, method: 'POST' | 'PUT', path: string, data?: unknown) {
  const response = await request.fetch(path, { method, data, headers: { 'X-Requested-With': 'murmur' } })
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`)
  return response.json() as Promise<Record<string, unknown>>
}

async function upload(request: APIRequestContext, width: number, height: number): Promise<string> {
  const { uploadURL } = (await call(request, 'POST', '/api/objects/upload')) as { uploadURL: string }
  const put = await request.put(uploadURL, {
    data: makePng(width, height),
    headers: { 'Content-Type': 'image/png', 'X-Requested-With': 'murmur' },
  })
  if (!put.ok()) throw new Error(`PUT ${uploadURL}: ${put.status()} ${await put.text()}`)
  return uploadURL
}

/** A member signed up through the e-mailed link; their browser context stays open. */
async function signUp(server: MurmurServer, browser: Browser, email: string, displayName: string) {
  const context = await newContext(browser, server.url, DESKTOP)
  const page = await context.newPage()
  const sentAt = Date.now()
  await call(context.request, 'POST', '/api/auth/request-magic-link', { email, inviteCode: await server.createInvite() })
  await page.goto(await server.magicLinkFor(email, sentAt))
  await page.getByRole('heading', { name: 'Home', exact: true }).waitFor({ timeout: 15_000 })
  // Home with its feed, as a member has it after the first-run step (first-hour.e2e.ts walks it).
  await context.request.post('/api/users/first-run', { headers: { 'X-Requested-With': 'murmur' } })
  const me = await call(context.request, 'PUT', '/api/users/profile', { displayName })
  return { context, id: me.id as number }
}

interface Drawn {
  tag: string
  attrs: Record<string, string>
  text: string
  color: string
  box: number[] | null
}

/**
 * Every element of each of the first `count` cards under `selector`: tag, attributes (style as
 * the browser reads it), own text, colour and box rounded to half a pixel. The post's time and
 * its link are left out of text and box: "just now" may become "1 minute ago" between the two
 * loads (the words themselves are a unit test in src/web/cards.rs).
 */
function drawn(page: Page, selector: string, count: number): Promise<Drawn[][]> {
  return page.evaluate(
    ({ selector, count }) => {
      const half = (n: number) => Math.round(n * 2) / 2
      return [...document.querySelectorAll(selector)].slice(0, count).map((card) =>
        [card, ...card.querySelectorAll('*')].map((element) => {
          const attrs: Record<string, string> = {}
          for (const attr of element.attributes) attrs[attr.name] = attr.value
          if ('style' in attrs) attrs.style = (element as HTMLElement).style.cssText
          const timed = element.closest('time') !== null || element.querySelector(':scope > time') !== null
          const text = [...element.childNodes]
            .filter((node) => node.nodeType === Node.TEXT_NODE)
            .map((node) => node.textContent)
            .join('')
          const rect = element.getBoundingClientRect()
          return {
            tag: element.tagName,
            attrs,
            text: timed ? '' : text,
            color: getComputedStyle(element).color,
            box: timed ? null : [half(rect.x), half(rect.y), half(rect.width), half(rect.height)],
          }
        }),
      )
    },
    { selector, count },
  )
}

describe.skipIf(!hasMurmur)("Home's first posts drawn by the server", () => {
  let server: MurmurServer
  let browser: Browser
  let reader: BrowserContext

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    const ivy = await signUp(server, browser, 'ivy@example.com', 'Ivy')
    const noor = await signUp(server, browser, 'noor@example.com', 'Noor')
    reader = ivy.context
    const ivyApi = ivy.context.request
    const noorApi = noor.context.request

    await call(noorApi, 'PUT', '/api/profile-images', { imageURL: await upload(noorApi, 96, 96) })
    await call(ivyApi, 'POST', '/api/follows', { followingId: noor.id })
    // Newest first on Ivy's Home: her own post with a pair of images, her repost of Noor's
    // reply (replies themselves are not in the Friends feed), Noor's photo, Noor's post
    // mentioning her (which she likes).
    const mention = await call(noorApi, 'POST', '/api/posts', {
      content: 'Morning @ivy, the pier at 7? #LowTide https://www.example.com/tides/this-week-and-next\nBring tea & <cake>.',
    })
    await call(noorApi, 'POST', '/api/posts', { content: 'Low tide', imageUrls: [await upload(noorApi, 160, 90)] })
    const reply = await call(noorApi, 'POST', '/api/posts', { content: 'Also: the ferry runs late.', replyToId: mention.id })
    await call(ivyApi, 'POST', `/api/posts/${mention.id as number}/like`)
    await call(ivyApi, 'POST', '/api/posts', { repostOfId: reply.id })
    // One image described and one not: the server's picture writes both alts as the card does.
    await call(ivyApi, 'POST', '/api/posts', {
      content: 'Two from the walk',
      images: [{ url: await upload(ivyApi, 90, 160), alt: 'Gulls on the "old" pier & a boat' }, { url: await upload(ivyApi, 120, 120) }],
    })
    await noor.context.close()
  })

  afterAll(async () => {
    await reader?.close()
    await browser?.close()
    await server?.stop()
  })

  it.each([
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const)('at %s size draws them as the app draws them', async (size, viewport) => {
    const context = await newContext(browser, server.url, viewport)
    await context.addCookies(await reader.cookies())
    const page = await context.newPage()

    await page.route('**/assets/*.js', (route) => route.abort())
    expectFailures(context, { path: /^\/assets\/[^/]+\.js$/ }) // the scripts kept away above
    await page.goto('/')
    const pictured = page.locator('#murmur-prepaint article')
    await pictured.first().waitFor()
    const count = await pictured.count()
    expect(count).toBe(4)
    // The theme was set before the first paint by the document's own script, which the
    // Content-Security-Policy lets run by its hash (src/web/mod.rs), with no other script yet.
    expect(await page.evaluate(() => document.documentElement.className)).toMatch(/\b(light|dark)\b/)
    await screenshot(page, `${size}-home-first-cards-before-scripts`)
    const fromServer = await drawn(page, '#murmur-prepaint article', count)

    await page.unroute('**/assets/*.js')
    await page.reload()
    // The picture carries the same words: wait for the app to have taken over from it.
    await page.locator('#murmur-prepaint').waitFor({ state: 'detached' })
    await page.getByRole('main').getByText('Two from the walk').waitFor()
    const fromApp = await drawn(page, 'main article', count)

    expect(fromServer).toEqual(fromApp)
    // And it is the feed it should be, not two equal mistakes.
    const texts = fromApp.map((card) => card.map((element) => element.text).join(' '))
    expect(texts[0]).toContain('Two from the walk')
    expect(texts[1]).toContain('Ivy reposted')
    expect(texts[1]).toContain('Replying to a post')
    expect(texts[2]).toContain('Low tide')
    expect(texts[3]).toContain('@ivy')
    expect(texts[3]).toContain('#LowTide')
    expect(texts[3]).toContain('example.com/tides/this-week-a…')
    expect(texts[3]).toContain('Bring tea & <cake>.')
    await context.close()
  })
})

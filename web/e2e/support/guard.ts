// The rule every browser test keeps: no console error, no page error, no failed request (other
// than the ones a test provokes on purpose) and no image that did not load. Every context made
// by `newContext` is watched; after each test its problems must be none.
import { afterEach, expect } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'

/** A failure a test provokes on purpose: its method (any if unset), path and status. */
export interface ExpectedFailure {
  path: RegExp
  status?: number
  method?: string
}

interface Watch {
  problems: string[]
  expected: ExpectedFailure[]
  pages: Set<Page>
  closed: boolean
}

const watches = new Map<BrowserContext, Watch>()

function isExpected(watch: Watch, method: string, url: string, status: number | undefined): boolean {
  const { pathname, search } = new URL(url)
  return watch.expected.some(
    (e) => e.path.test(pathname + search) && (e.status === undefined || e.status === status) && (!e.method || e.method === method),
  )
}

/** The images in the page that the browser tried and failed to load (lazy ones not yet fetched do not count). */
async function brokenImages(page: Page): Promise<string[]> {
  if (page.isClosed()) return []
  return page
    .evaluate(() =>
      [...document.images]
        .filter((img) => img.complete && img.naturalWidth === 0 && (img.currentSrc || img.src))
        .map((img) => img.currentSrc || img.src),
    )
    .catch(() => []) // a page navigating away has no images to judge
}

function watchPage(watch: Watch, page: Page) {
  watch.pages.add(page)
  page.on('close', () => watch.pages.delete(page))
  page.on('pageerror', (error) => watch.problems.push(`page error on ${page.url()}: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    // A failed load is judged by its response below, where expected failures are known.
    if (message.text().startsWith('Failed to load resource')) return
    watch.problems.push(`console error on ${page.url()}: ${message.text()}`)
  })
  page.on('response', (response) => {
    const request = response.request()
    if (response.status() >= 400 && !isExpected(watch, request.method(), response.url(), response.status()))
      watch.problems.push(`${request.method()} ${response.url()}: ${response.status()}`)
  })
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? 'failed'
    // Navigation, a finished video range or a closed page cancel requests: not a failure a person meets.
    if (failure.includes('ERR_ABORTED')) return
    if (!isExpected(watch, request.method(), request.url(), undefined))
      watch.problems.push(`${request.method()} ${request.url()}: ${failure}`)
  })
}

/** Watches every page of `context`; its images are judged before it closes. */
export function watchContext(context: BrowserContext) {
  const watch: Watch = { problems: [], expected: [], pages: new Set(), closed: false }
  watches.set(context, watch)
  context.on('page', (page) => watchPage(watch, page))
  context.on('close', () => (watch.closed = true))
  const close = context.close.bind(context)
  context.close = async (...args: Parameters<BrowserContext['close']>) => {
    await judgeImages(watch)
    return close(...args)
  }
}

/** Failures this test provokes on purpose in `context` (a bad link, a missing post). */
export function expectFailures(context: BrowserContext, ...failures: ExpectedFailure[]) {
  const watch = watches.get(context)
  if (!watch) throw new Error('expectFailures: the context was not made by newContext')
  watch.expected.push(...failures)
}

async function judgeImages(watch: Watch) {
  for (const page of watch.pages) {
    for (const src of await brokenImages(page)) watch.problems.push(`image did not load on ${page.url()}: ${src}`)
  }
}

/** The problems seen so far in every watched context, emptied; contexts already closed are forgotten. */
async function takeProblems(): Promise<string[]> {
  const problems: string[] = []
  for (const [context, watch] of watches) {
    await judgeImages(watch)
    problems.push(...new Set(watch.problems))
    watch.problems.length = 0
    if (watch.closed) watches.delete(context)
  }
  return problems
}

afterEach(async () => {
  expect(await takeProblems(), 'what a person would have seen go wrong').toEqual([])
})

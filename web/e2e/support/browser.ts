// Debian's chromium driven by playwright-core (no browser downloads here).
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { CHROMIUM_ARGS } from './chromium-args.mjs'
import { watchContext } from './guard'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const SCREENSHOT_DIR = new URL('../../test-results/screenshots/', import.meta.url).pathname
export const DESKTOP = { width: 1280, height: 800 }
export const MOBILE = { width: 390, height: 844 }
/** The narrowest phone a member may use. */
export const PHONE = { width: 360, height: 740 }

const LAUNCH = {
  executablePath: CHROMIUM,
  headless: true,
  args: CHROMIUM_ARGS,
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch(LAUNCH)
}

/** A browser with a profile on disk (not incognito), as a person's own browser is; watched like every context. */
export async function launchPersistentBrowser(userDataDir: string): Promise<BrowserContext> {
  const context = await chromium.launchPersistentContext(userDataDir, { ...LAUNCH, viewport: DESKTOP })
  watchContext(context)
  return context
}

export async function newContext(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number },
  options: { colorScheme?: 'light' | 'dark'; reducedMotion?: 'reduce' | 'no-preference' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport,
    deviceScaleFactor: 1,
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'no-preference',
    isMobile: viewport.width < 500,
    hasTouch: viewport.width < 500,
  })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
  watchContext(context)
  return context
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const path = join(SCREENSHOT_DIR, `${name}.png`)
  // let fonts, images and transitions settle
  await page.evaluate(() => document.fonts.ready)
  await page.waitForTimeout(250)
  await page.screenshot({ path, fullPage: false })
  return path
}

const require = createRequire(import.meta.url)
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[]; html: string }[]
}

/** Runs axe-core in the page (through the DevTools protocol, so the page's CSP does not block it). */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, html: n.html.slice(0, 200) })),
    }))
  })
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}  ${n.html}`).join('\n')}`)
    .join('\n')
}

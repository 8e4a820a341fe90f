// Audits a running, seeded Murmur with Lighthouse: the landing page logged out and Home logged
// in, each several times in a fresh Chromium; prints every run and the medians, writes the
// reports, and exits 1 when a median misses its target. Started by run.sh (see ./run.sh --help).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { desktopConfig } from 'lighthouse'
// Shared with the browser tests: one set of chromium switches, one PNG maker.
import { CHROMIUM_ARGS } from '../../web/e2e/support/chromium-args.mjs'
import { makePng } from '../../web/e2e/support/png.mjs'

const TARGETS = { performance: 95, accessibility: 100, 'best-practices': 95 }
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']

function parseArgs(argv) {
  const options = { url: '', sessions: '', runs: 3, out: '', desktop: false, imagePosts: 20 }
  for (let i = 0; i < argv.length; i++) {
    const [name, value] = [argv[i], argv[i + 1]]
    if (name === '--url') options.url = value
    else if (name === '--sessions') options.sessions = value
    else if (name === '--runs') options.runs = Number(value)
    else if (name === '--out') options.out = value
    else if (name === '--image-posts') options.imagePosts = Number(value)
    else if (name === '--desktop') {
      options.desktop = true
      continue
    } else throw new Error(`unknown argument ${name}`)
    i++
  }
  if (!options.url || !options.sessions || !options.out) throw new Error('--url, --sessions and --out are required')
  if (!(options.runs >= 1)) throw new Error('--runs must be at least 1')
  return options
}

/** `token<TAB>user_id<TAB>username<TAB>following_count` lines, as `murmur seed --sessions-out` writes them. */
function readSessions(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [token, id, username, following] = line.split('\t')
      return { cookie: `murmur_session=${token}`, id: Number(id), username, following: Number(following) }
    })
}

async function call(base, session, method, path, body) {
  const headers = { Cookie: session.cookie, 'X-Requested-With': 'murmur' }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(new URL(path, base), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return response.status === 204 ? undefined : response.json()
}

// Landscape, portrait and square photos: the feed must hold its layout whatever their shape.
const SHAPES = [
  [1200, 800],
  [720, 960],
  [900, 900],
  [1280, 720],
]
// Images per post, repeating: mostly one, sometimes a pair or a grid of four.
const IMAGES_PER_POST = [1, 1, 2, 1, 4, 1, 1, 2, 1, 1]

async function uploadImage(base, session, index) {
  const { uploadURL } = await call(base, session, 'POST', '/api/objects/upload')
  const [width, height] = SHAPES[index % SHAPES.length]
  const response = await fetch(new URL(uploadURL, base), {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png', 'X-Requested-With': 'murmur' },
    body: makePng(width, height, (index * 47) % 256),
  })
  if (!response.ok) throw new Error(`PUT upload: ${response.status} ${await response.text()}`)
  return uploadURL
}

/**
 * Seeded posts carry no images. Two other seeded members write `count` posts with images and the
 * viewer follows them, so the top of the viewer's Friends feed is all posts with images.
 */
async function writeImagePosts(base, viewer, authors, count) {
  for (const author of authors) await call(base, viewer, 'POST', '/api/follows', { followingId: author.id })
  let image = 0
  for (let n = 0; n < count; n++) {
    const author = authors[n % authors.length]
    const urls = []
    for (let k = 0; k < IMAGES_PER_POST[n % IMAGES_PER_POST.length]; k++) urls.push(await uploadImage(base, author, image++))
    await call(base, author, 'POST', '/api/posts', { content: `Photo walk, part ${n + 1}. The light was unreal today.`, imageUrls: urls })
  }
  return image
}

async function audit(url, cookie, options, chromePath) {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROMIUM_ARGS })
  try {
    const flags = { port: chrome.port, output: ['html', 'json'], logLevel: 'error', onlyCategories: CATEGORIES }
    if (cookie) flags.extraHeaders = { Cookie: cookie }
    const result = await lighthouse(url, flags, options.desktop ? desktopConfig : undefined)
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`)
    if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`)
    return result
  } finally {
    await chrome.kill()
  }
}

function figures(lhr) {
  const row = {}
  for (const id of CATEGORIES) row[id] = Math.round((lhr.categories[id]?.score ?? 0) * 100)
  row.cls = lhr.audits['cumulative-layout-shift'].numericValue
  row.lcp = lhr.audits['largest-contentful-paint'].numericValue
  row.tbt = lhr.audits['total-blocking-time'].numericValue
  return row
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function formatRow(label, row) {
  const cells = [
    label.padEnd(16),
    ...CATEGORIES.map((id) => String(row[id]).padStart(id.length)),
    row.cls.toFixed(3).padStart(6),
    `${Math.round(row.lcp)} ms`.padStart(9),
    `${Math.round(row.tbt)} ms`.padStart(8),
  ]
  return cells.join('  ')
}

/** The audits that lost points, so a miss says where to look. */
function failingAudits(lhr) {
  const lines = []
  for (const id of CATEGORIES) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const result = lhr.audits[ref.id]
      if (ref.weight > 0 && result.score !== null && result.score < 0.9) {
        lines.push(`    ${id}: ${ref.id} (${Math.round(result.score * 100)})${result.displayValue ? ` ${result.displayValue}` : ''}`)
      }
    }
  }
  return lines
}

async function main() {
  const options = parseArgs(process.argv.slice(2))
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium'
  const sessions = readSessions(options.sessions)
  if (sessions.length < 3) throw new Error(`need at least 3 sessions in ${options.sessions}, got ${sessions.length}`)
  // The first session is for one of the members who follow the most: the costliest Friends feed.
  const [viewer, ...others] = sessions
  const authors = others.slice(0, 2)
  const images = await writeImagePosts(options.url, viewer, authors, options.imagePosts)
  console.log(`Home as @${viewer.username} (follows ${viewer.following + authors.length}); ` +
    `${options.imagePosts} new posts with ${images} images by ${authors.map((a) => '@' + a.username).join(', ')}`)

  const pages = [
    { name: 'landing', label: 'Landing (/)', path: '/', cookie: undefined },
    { name: 'home', label: 'Home (/)', path: '/', cookie: viewer.cookie },
  ]
  mkdirSync(options.out, { recursive: true })
  const header = ['page'.padEnd(16), ...CATEGORIES, '   CLS', '      LCP', '     TBT'].join('  ')
  const medians = []
  for (const page of pages) {
    const rows = []
    let last
    for (let run = 1; run <= options.runs; run++) {
      const result = await audit(new URL(page.path, options.url).href, page.cookie, options, chromePath)
      const [html, json] = result.report
      writeFileSync(join(options.out, `${page.name}-${run}.html`), html)
      writeFileSync(join(options.out, `${page.name}-${run}.json`), json)
      const row = figures(result.lhr)
      rows.push(row)
      last = result.lhr
      console.log(formatRow(`${page.name} run ${run}`, row))
    }
    const row = {}
    for (const key of Object.keys(rows[0])) row[key] = median(rows.map((r) => r[key]))
    medians.push({ page, row, lhr: last })
  }

  const form = options.desktop ? 'desktop' : 'mobile (Lighthouse default: emulated Moto G Power, slow 4G, 4x CPU slowdown)'
  console.log(`\nMedian of ${options.runs} run(s), ${form}; reports in ${options.out}`)
  console.log(header)
  let missed = false
  for (const { page, row, lhr } of medians) {
    console.log(formatRow(page.label, row))
    const misses = Object.entries(TARGETS).filter(([id, target]) => row[id] < target)
    if (misses.length) {
      missed = true
      console.log(`  misses: ${misses.map(([id, target]) => `${id} ${row[id]} < ${target}`).join(', ')}`)
      for (const line of failingAudits(lhr)) console.log(line)
    }
  }
  console.log(`Targets: performance >= ${TARGETS.performance}, accessibility >= ${TARGETS.accessibility}, best practices >= ${TARGETS['best-practices']}`)
  process.exit(missed ? 1 : 0)
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error)
  process.exit(2)
})

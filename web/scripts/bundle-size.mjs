// Prints the gzip size of every built JS and CSS file, and the JS each first screen needs
// (the entry with what index.html preloads, plus the screen's lazy chunks and their static
// imports); fails if the landing page's or Home's JS is over budget.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

const BUDGET_KB = 180
const dist = new URL('../dist/', import.meta.url).pathname
const assets = join(dist, 'assets')
const kb = (bytes) => (bytes / 1024).toFixed(1)
const gz = (file) => gzipSync(readFileSync(file)).length

const html = readFileSync(join(dist, 'index.html'), 'utf8')
const initial = new Set([...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]))

const rows = readdirSync(assets)
  .filter((name) => name.endsWith('.js') || name.endsWith('.css'))
  .map((name) => ({ name, raw: readFileSync(join(assets, name)).length, gzip: gz(join(assets, name)) }))
  .sort((a, b) => b.gzip - a.gzip)
const gzipOf = new Map(rows.map((row) => [row.name, row.gzip]))

for (const row of rows) {
  const mark = initial.has(row.name) ? ' (initial)' : ''
  console.log(`${row.name.padEnd(48)} ${kb(row.raw).padStart(8)} KB  gzip ${kb(row.gzip).padStart(7)} KB${mark}`)
}

/** A chunk and every chunk it imports statically (dynamic `import()`s load later, when used). */
function staticClosure(name, seen = new Set()) {
  if (seen.has(name)) return seen
  seen.add(name)
  const code = readFileSync(join(assets, name), 'utf8')
  for (const match of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) staticClosure(match[1], seen)
  return seen
}

function routeChunk(route) {
  const name = rows.find((row) => new RegExp(`^${route}-[\\w-]+\\.js$`).test(row.name))?.name
  if (!name) throw new Error(`no chunk for the ${route} route in ${assets}`)
  return name
}

const entry = new Set([...initial].flatMap((name) => [...staticClosure(name)]))
const sum = (names) => [...names].reduce((total, name) => total + (gzipOf.get(name) ?? 0), 0)
// A screen's lazy chunks: visitors get the landing page; members the member shell and Home.
const screenChunks = (...routes) => new Set([...entry, ...routes.flatMap((route) => [...staticClosure(routeChunk(route))])])
const screens = [
  { label: 'Landing page', chunks: screenChunks('landing') },
  { label: 'Home', chunks: screenChunks('member-routes', 'home') },
]

console.log(`\nInitial JS (gzip): ${kb(sum(entry))} KB (entry and preloads)`)
let over = false
for (const screen of screens) {
  const total = sum(screen.chunks)
  console.log(`${screen.label} JS (gzip): ${kb(total)} KB of a ${BUDGET_KB} KB budget (${screen.chunks.size} files)`)
  if (total > BUDGET_KB * 1024) over = true
}
if (over) {
  console.error('A first screen\'s JS is over budget.')
  process.exit(1)
}

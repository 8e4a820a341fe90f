// Prints the gzip size of every built JS and CSS file and fails if the first load's JS is over budget.
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

for (const row of rows) {
  const mark = initial.has(row.name) ? ' (initial)' : ''
  console.log(`${row.name.padEnd(48)} ${kb(row.raw).padStart(8)} KB  gzip ${kb(row.gzip).padStart(7)} KB${mark}`)
}
const initialGzip = rows.filter((row) => initial.has(row.name)).reduce((sum, row) => sum + row.gzip, 0)
console.log(`\nInitial JS (gzip): ${kb(initialGzip)} KB of a ${BUDGET_KB} KB budget`)
if (initialGzip > BUDGET_KB * 1024) {
  console.error('Initial JS is over budget.')
  process.exit(1)
}

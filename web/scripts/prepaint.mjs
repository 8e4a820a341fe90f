// Renders the member shell's picture (src/app/prepaint.tsx) to static HTML after `vite build`,
// for the server to put into a member's document (src/web): dist/.murmur/prepaint.json,
// `{ "home": …, "other": …, "cardsSlot": … }`: Home's frame (Home marked as the current page)
// with the place of its first posts, the shell with no page marked, and what marks that place;
// and the post card's template the server draws those posts with (card-template.mjs). Under
// dist/ so it is embedded with the build; under a dot-folder, which the server never serves.
//
// Vite's own SSR loader compiles the components as the app's build does (TSX, the `@/` alias),
// the pre-rendering recipe of Vite's SSR guide; no second bundle is written.
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'vite'
import { cardTemplate } from './card-template.mjs'

const vite = await createServer({
  configFile: new URL('../vite.config.ts', import.meta.url).pathname,
  server: { middlewareMode: true, hmr: false },
  appType: 'custom',
  logLevel: 'error',
})
try {
  const app = await vite.ssrLoadModule('/src/app/prepaint.tsx')
  const { renderPrepaint, firstCardsSlot, FIRST_CARDS_ID } = app
  const shells = { home: renderPrepaint('/'), other: renderPrepaint('other') }
  // The server splices these (and the card's markup) into the document as they are: make sure
  // they are what we think, markup that runs nothing. (Style attributes are plain; Radix's tabs write two.)
  const plain = (name, html) => {
    if (/<script|\son\w+=|javascript:/i.test(html)) {
      throw new Error(`the ${name} prepaint is not the plain HTML it should be:\n${html}`)
    }
  }
  for (const [name, html] of Object.entries(shells)) {
    plain(name, html)
    if (!html.includes('<main id="main"')) throw new Error(`the ${name} prepaint has no <main>:\n${html}`)
  }
  const cardsSlot = `<div id="${FIRST_CARDS_ID}">${firstCardsSlot()}</div>`
  if (shells.home.split(cardsSlot).length !== 2) {
    throw new Error(`Home's prepaint does not hold the place of its posts once:\n${shells.home}`)
  }
  const prepaint = { ...shells, cardsSlot }
  const out = new URL('../dist/.murmur/', import.meta.url).pathname
  mkdirSync(out, { recursive: true })
  writeFileSync(`${out}prepaint.json`, JSON.stringify(prepaint))
  console.log(`prepaint: ${prepaint.home.length} and ${prepaint.other.length} bytes of shell HTML`)
  const { relativeTime } = await vite.ssrLoadModule('/src/lib/utils.ts')
  const { template, combinations } = cardTemplate({ ...app, relativeTime })
  const card = JSON.stringify(template)
  plain('card template', card)
  writeFileSync(`${out}card.json`, card)
  console.log(`card template: ${card.length} bytes, checked against ${combinations} renderings`)
} finally {
  await vite.close()
}

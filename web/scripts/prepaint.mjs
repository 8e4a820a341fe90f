// Renders the member shell's picture (src/app/prepaint.tsx) to static HTML after `vite build`,
// for the server to put into a member's document (src/web.rs): dist/.murmur/prepaint.json,
// `{ "home": …, "other": … }` (Home marked as the current page, or no page). Under dist/ so it
// is embedded with the build; under a dot-folder, which the server never serves as a file.
//
// Vite's own SSR loader compiles the components as the app's build does (TSX, the `@/` alias),
// the pre-rendering recipe of Vite's SSR guide; no second bundle is written.
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'vite'

const vite = await createServer({
  configFile: new URL('../vite.config.ts', import.meta.url).pathname,
  server: { middlewareMode: true, hmr: false },
  appType: 'custom',
  logLevel: 'error',
})
try {
  const { renderPrepaint } = await vite.ssrLoadModule('/src/app/prepaint.tsx')
  const prepaint = { home: renderPrepaint('/'), other: renderPrepaint('other') }
  for (const [name, html] of Object.entries(prepaint)) {
    // The server splices it into the document as is: make sure it is what we think it is.
    if (!html.includes('<main id="main"') || /<script|\sstyle=|\son\w+=/i.test(html)) {
      throw new Error(`the ${name} prepaint is not the plain shell it should be:\n${html}`)
    }
  }
  const out = new URL('../dist/.murmur/', import.meta.url).pathname
  mkdirSync(out, { recursive: true })
  writeFileSync(`${out}prepaint.json`, JSON.stringify(prepaint))
  console.log(`prepaint: ${prepaint.home.length} and ${prepaint.other.length} bytes of shell HTML`)
} finally {
  await vite.close()
}

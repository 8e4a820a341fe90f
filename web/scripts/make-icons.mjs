// Draws the app icons the web app manifest names (public/icon-*.png) from the logo, with
// Debian's chromium. Run by hand after the logo changes: `node scripts/make-icons.mjs`.
import { writeFileSync } from 'node:fs'
import { chromium } from 'playwright-core'

const PURPLE = '#6d28d9'
// The logo's "M" on its purple square. `inset` keeps the glyph inside the safe zone of a
// maskable icon (the inner 80%), which launchers may crop to a circle.
const svg = (rounded, inset) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
  <rect width="32" height="32" rx="${rounded ? 8 : 0}" fill="${PURPLE}"/>
  <g transform="translate(${16 * inset} ${16 * inset}) scale(${1 - inset})">
    <path d="M8 22V10l8 7 8-7v12" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>
  </g></svg>`

const icons = [
  { file: 'icon-192.png', size: 192, svg: svg(true, 0) },
  { file: 'icon-512.png', size: 512, svg: svg(true, 0) },
  { file: 'icon-maskable-512.png', size: 512, svg: svg(false, 0.2) },
  { file: 'apple-touch-icon.png', size: 180, svg: svg(false, 0.1) },
]

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
for (const icon of icons) {
  const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } })
  await page.setContent(
    `<html><body style="margin:0;background:transparent">${icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `)}</body></html>`,
  )
  writeFileSync(new URL(`../public/${icon.file}`, import.meta.url), await page.screenshot({ omitBackground: true }))
  await page.close()
}
await browser.close()

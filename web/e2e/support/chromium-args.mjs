// How Debian's chromium runs here (STACK.md): headless, no sandbox, and nothing (extensions,
// updates, sync) that reaches the network. Used by the browser tests (browser.ts) and by
// bench/lighthouse/audit.mjs, which is plain Node: hence plain JavaScript, typed in chromium-args.d.mts.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

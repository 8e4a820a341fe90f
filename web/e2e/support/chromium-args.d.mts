/** Chromium's command-line switches for the browser tests and the Lighthouse benchmark. */
export const CHROMIUM_ARGS: string[]

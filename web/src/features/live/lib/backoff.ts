export const FIRST_RETRY_MS = 1_000
export const LAST_RETRY_MS = 30_000

/**
 * How long to wait before the `attempt`-th new stream (0 for the first) after the browser gave up:
 * 1 s doubling up to 30 s, each drawn from the upper half of its step, so tabs that lost the same
 * server do not all come back at the same moment.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt))
  return Math.round(step / 2 + (random() * step) / 2)
}

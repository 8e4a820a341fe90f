import { describe, expect, it } from 'vitest'
import { LAST_RETRY_MS, reconnectDelay } from './backoff'

const lowest = () => 0
const highest = () => 1

describe('the reconnect back-off', () => {
  it('starts at 1 s and doubles with each attempt', () => {
    expect([0, 1, 2, 3, 4].map((attempt) => reconnectDelay(attempt, highest))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000])
  })

  it('stops doubling at 30 s', () => {
    expect(reconnectDelay(5, highest)).toBe(LAST_RETRY_MS)
    expect(reconnectDelay(40, highest)).toBe(LAST_RETRY_MS)
    expect(reconnectDelay(1_000, highest)).toBe(LAST_RETRY_MS)
  })

  it('is jittered within the upper half of each step, so tabs do not all return at once', () => {
    expect(reconnectDelay(0, lowest)).toBe(500)
    expect(reconnectDelay(3, lowest)).toBe(4_000)
    expect(reconnectDelay(3, () => 0.5)).toBe(6_000)
    expect(reconnectDelay(9, lowest)).toBe(15_000)
    for (let i = 0; i < 50; i++) {
      const delay = reconnectDelay(2)
      expect(delay).toBeGreaterThanOrEqual(2_000)
      expect(delay).toBeLessThanOrEqual(4_000)
    }
  })
})

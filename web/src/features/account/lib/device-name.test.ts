import { describe, expect, it } from 'vitest'
import { relativeTime } from '@/lib/utils'
import { deviceName, isHandheld, lastActive } from './device-name'

describe('a session named for a person', () => {
  it('says the browser and the system, as far as the user agent says', () => {
    expect(deviceName({ browser: 'Firefox 128', os: 'Linux' })).toBe('Firefox 128 on Linux')
    expect(deviceName({ browser: 'Firefox 128', os: null })).toBe('Firefox 128')
    expect(deviceName({ browser: null, os: 'Android' })).toBe('A browser on Android')
    expect(deviceName({ browser: null, os: null })).toBe('Unknown browser')
  })

  it('knows phones and tablets', () => {
    expect(isHandheld({ os: 'iOS' })).toBe(true)
    expect(isHandheld({ os: 'macOS' })).toBe(false)
    expect(isHandheld({ os: null })).toBe(false)
  })

  it('says when it was last active no more precisely than the server knows', () => {
    const now = Date.parse('2026-11-26T12:00:00Z')
    const at = (minutes: number) => new Date(now - minutes * 60_000).toISOString()
    const relative = (iso: string) => relativeTime(iso, now)
    expect(lastActive({ current: true, lastUsedAt: at(50) }, relative, now)).toBe('Active now')
    expect(lastActive({ current: false, lastUsedAt: at(3) }, relative, now)).toBe('Last active in the past few minutes')
    expect(lastActive({ current: false, lastUsedAt: at(5) }, relative, now)).toBe('Last active 5 minutes ago')
    expect(lastActive({ current: false, lastUsedAt: at(180) }, relative, now)).toBe('Last active 3 hours ago')
  })
})

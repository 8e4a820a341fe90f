import { describe, expect, it, vi } from 'vitest'
import { browserSupportsWebAuthn } from '@simplewebauthn/browser'
import { whyNoPasskeys } from './passkeys-here'

vi.mock('@simplewebauthn/browser', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@simplewebauthn/browser')>()),
  browserSupportsWebAuthn: vi.fn(() => true),
}))

describe('whether passkeys work on this page', () => {
  it('they do at a domain name, in a browser with WebAuthn', () => {
    expect(whyNoPasskeys('murmur.example')).toBeNull()
    expect(whyNoPasskeys('localhost')).toBeNull()
  })

  it('an instance reached by an IP address says it needs a domain name', () => {
    for (const host of ['192.0.2.7', '[2001:db8::1]', '2001:db8::1'])
      expect(whyNoPasskeys(host)).toBe('Passkeys need the instance to be reached by a domain name, not an IP address.')
  })

  it('a browser without WebAuthn says so', () => {
    vi.mocked(browserSupportsWebAuthn).mockReturnValue(false)
    expect(whyNoPasskeys('murmur.example')).toBe("This browser can't use passkeys.")
  })
})

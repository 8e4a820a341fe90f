import { describe, expect, it, vi } from 'vitest'
import { dropTrailingSlash, withoutTrailingSlash } from './trailing-slash'

describe('a path with a trailing slash', () => {
  it('is the path without it', () => {
    expect(withoutTrailingSlash('/oauth/authorize/')).toBe('/oauth/authorize')
    expect(withoutTrailingSlash('/profile/ada//')).toBe('/profile/ada')
    expect(withoutTrailingSlash('/')).toBe('/')
    expect(withoutTrailingSlash('/settings')).toBe('/settings')
  })

  it('is rewritten once in the address, keeping the query and the fragment', () => {
    const history = { state: { kept: true }, replaceState: vi.fn() }
    dropTrailingSlash({ pathname: '/oauth/authorize/', search: '?response_type=code&client_id=abc', hash: '#top' }, history)
    expect(history.replaceState).toHaveBeenCalledWith({ kept: true }, '', '/oauth/authorize?response_type=code&client_id=abc#top')
  })

  it('leaves an address without one, or one that would name another host, as it is', () => {
    const history = { state: null, replaceState: vi.fn() }
    dropTrailingSlash({ pathname: '/oauth/authorize', search: '?client_id=abc', hash: '' }, history)
    dropTrailingSlash({ pathname: '/', search: '', hash: '' }, history)
    dropTrailingSlash({ pathname: '//evil.example/', search: '', hash: '' }, history)
    expect(history.replaceState).not.toHaveBeenCalled()
  })
})

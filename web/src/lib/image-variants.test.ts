import { describe, expect, it } from 'vitest'
import { VARIANT_WIDTHS, variantFor, variantSrcSet, variantUrl } from './image-variants'

const id = '0123456789abcdef0123456789abcdef'

describe('image variants', () => {
  it('names a copy of an uploaded image by its width', () => {
    expect(variantUrl(`/objects/${id}`, 640)).toBe(`/objects/${id}/640`)
    expect(variantUrl(`https://murmur.example/objects/${id}`, 320)).toBe(`https://murmur.example/objects/${id}/320`)
  })

  it('leaves other URLs alone', () => {
    for (const url of ['/landing-poster.jpg', `/objects/${id}/640`, `/objects/${id.toUpperCase()}`, `/objects/${id}?x=1`, 'https://elsewhere.example/cat.png']) {
      expect(variantUrl(url, 640)).toBe(url)
      expect(variantSrcSet(url)).toBeUndefined()
    }
  })

  it('lists every copy with its width for srcset', () => {
    const srcset = variantSrcSet(`/objects/${id}`)!
    const entries = srcset.split(', ')
    expect(entries).toHaveLength(VARIANT_WIDTHS.length)
    for (const [index, width] of VARIANT_WIDTHS.entries()) expect(entries[index]).toBe(`/objects/${id}/${width} ${width}w`)
  })

  it('picks the smallest copy sharp on a 2x screen', () => {
    expect(variantFor(`/objects/${id}`, 40)).toBe(`/objects/${id}/320`)
    expect(variantFor(`/objects/${id}`, 200)).toBe(`/objects/${id}/640`)
    expect(variantFor(`/objects/${id}`, 5000)).toBe(`/objects/${id}/1280`)
  })
})

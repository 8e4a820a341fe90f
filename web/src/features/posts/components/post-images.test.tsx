import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { PostImages } from './post-images'

const upload = (n: number) => `/objects/${String(n).repeat(32)}`

describe('post images', () => {
  it('shows display copies in a fixed box and links the full image', () => {
    render(<PostImages urls={[upload(1)]} authorName="Ada" />)
    const image = screen.getByRole('img', { name: 'Image 1 of 1 posted by Ada' })
    expect(image).toHaveAttribute('src', `${upload(1)}/640`)
    expect(image.getAttribute('srcset')).toContain(`${upload(1)}/320 320w`)
    expect(image.getAttribute('srcset')).toContain(`${upload(1)}/1280 1280w`)
    expect(image).toHaveAttribute('sizes')
    // The box keeps its shape whatever arrives: no layout shift.
    expect(image).toHaveClass('aspect-[3/2]')
    expect(image).toHaveAttribute('width', '600')
    expect(image).toHaveAttribute('height', '400')
    expect(screen.getByRole('link')).toHaveAttribute('href', upload(1))
  })

  it('tells the browser grid images are drawn half as wide', () => {
    render(<PostImages urls={[upload(1), upload(2)]} authorName="Ada" />)
    const [first, second] = screen.getAllByRole('img')
    expect(first.getAttribute('sizes')).not.toBe(null)
    expect(first.getAttribute('sizes')).toBe(second.getAttribute('sizes'))
    expect(first).toHaveClass('aspect-square')
    render(<PostImages urls={[upload(3)]} authorName="Bob" />)
    const alone = screen.getByRole('img', { name: 'Image 1 of 1 posted by Bob' })
    expect(alone.getAttribute('sizes')).not.toBe(first.getAttribute('sizes'))
  })

  it('shows other image URLs as they are', () => {
    render(<PostImages urls={['/landing-poster.jpg']} authorName="Ada" />)
    const image = screen.getByRole('img')
    expect(image).toHaveAttribute('src', '/landing-poster.jpg')
    expect(image).not.toHaveAttribute('srcset')
  })
})

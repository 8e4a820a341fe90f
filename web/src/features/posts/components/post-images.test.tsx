import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { PostImage } from '@/lib/types'
import { PostImages } from './post-images'

const upload = (n: number) => `/objects/${String(n).repeat(32)}`
const described = (n: number, alt: string | null): PostImage => ({ url: upload(n), alt, width: 800, height: 600 })
/** A post's images as the server sends those with no description and no known size. */
const undescribed = (...urls: string[]) => ({ imageUrls: urls, images: urls.map((url) => ({ url, alt: null, width: null, height: null })) })

describe('post images', () => {
  it('shows display copies in a fixed box and links the full image', () => {
    render(<PostImages post={undescribed(upload(1))} authorName="Ada" />)
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
    render(<PostImages post={undescribed(upload(1), upload(2))} authorName="Ada" />)
    const [first, second] = screen.getAllByRole('img')
    expect(first.getAttribute('sizes')).not.toBe(null)
    expect(first.getAttribute('sizes')).toBe(second.getAttribute('sizes'))
    expect(first).toHaveClass('aspect-square')
    render(<PostImages post={undescribed(upload(3))} authorName="Bob" />)
    const alone = screen.getByRole('img', { name: 'Image 1 of 1 posted by Bob' })
    expect(alone.getAttribute('sizes')).not.toBe(first.getAttribute('sizes'))
  })

  it('shows other image URLs as they are', () => {
    render(<PostImages post={undescribed('/landing-poster.jpg')} authorName="Ada" />)
    const image = screen.getByRole('img')
    expect(image).toHaveAttribute('src', '/landing-poster.jpg')
    expect(image).not.toHaveAttribute('srcset')
  })

  it('names each image by its description, or by position and author when it has none', () => {
    const images = [described(1, 'A heron on one leg'), described(2, null)]
    render(<PostImages post={{ imageUrls: images.map((i) => i.url), images }} authorName="Ada" />)
    expect(screen.getByRole('img', { name: 'A heron on one leg' })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Image 2 of 2 posted by Ada' })).toBeInTheDocument()
  })

  it('opens the full image in a lightbox, moves with the arrows, and gives focus back on Escape', async () => {
    const images = [described(1, 'A heron on one leg'), described(2, null), described(3, 'The pier at dusk')]
    render(<PostImages post={{ imageUrls: images.map((i) => i.url), images }} authorName="Ada" />)
    const second = screen.getAllByRole('link')[1]
    second.focus()
    await userEvent.keyboard('{Enter}')

    const lightbox = await screen.findByRole('dialog', { name: 'Image 2 of 3' })
    expect(lightbox.querySelector('img')).toHaveAttribute('src', upload(2))
    await userEvent.keyboard('{ArrowRight}')
    expect(screen.getByRole('dialog', { name: 'Image 3 of 3' })).toBeInTheDocument()
    expect(screen.getByRole('dialog').querySelector('img')).toHaveAttribute('alt', 'The pier at dusk')
    await userEvent.keyboard('{ArrowRight}')
    expect(screen.getByRole('dialog', { name: 'Image 1 of 3' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Previous image' }))
    expect(screen.getByRole('dialog', { name: 'Image 3 of 3' })).toBeInTheDocument()

    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(second).toHaveFocus()
  })
})

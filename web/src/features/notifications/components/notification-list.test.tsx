import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Notification } from '@/lib/types'
import { json, mockFetch, renderWithProviders } from '@/test/test-utils'
import { NotificationList } from './notification-list'

const ROW = 80
const LIST_TOP = 120

const grace = { id: 2, username: 'grace', displayName: 'Grace Hopper', profileImageUrl: null }
const notification = (id: number): Notification => ({
  id,
  groupKey: `n-${id}`,
  count: 1,
  actors: [{ ...grace, id, displayName: `Member ${id}` }],
  type: 'follow',
  isRead: true,
  createdAt: '2026-11-20T10:00:00Z',
  actor: { ...grace, id, displayName: `Member ${id}` },
})
const list = (...ids: number[]) => ids.map(notification)

let scrollY = 0
const scrollBy = vi.fn((_x: number, y: number) => {
  scrollY += y
})

/** Lays each list item out as a row of ROW px below LIST_TOP, scrolled by `scrollY` (jsdom lays nothing out). */
function layOutRows() {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const index = this.parentElement ? [...this.parentElement.children].indexOf(this) : 0
    const top = LIST_TOP + index * ROW - scrollY
    return DOMRect.fromRect({ x: 0, y: top, width: 600, height: ROW })
  })
  vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => scrollY)
  vi.stubGlobal('scrollBy', scrollBy)
}

function preferReducedMotion(reduce: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: reduce && query === '(prefers-reduced-motion: reduce)',
      addEventListener: () => {},
      removeEventListener: () => {},
    })),
  )
}

/** The list showing notifications `ids`; `update` shows others in the same list. */
function renderList(...ids: number[]) {
  const { rerender } = renderWithProviders(<NotificationList notifications={list(...ids)} />)
  return { update: (...next: number[]) => rerender(<NotificationList notifications={list(...next)} />) }
}

/** The item a person sees at the top of the viewport. */
function firstVisibleItem() {
  return screen.getAllByRole('listitem').find((item) => item.getBoundingClientRect().bottom > 0)
}

beforeEach(() => {
  scrollY = 0
  scrollBy.mockClear()
  mockFetch(() => json({}))
  layOutRows()
})

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

describe('the notifications list', () => {
  it('keeps the reader on the notification they were reading when new ones arrive on top', () => {
    const { update } = renderList(5, 4, 3, 2, 1)
    scrollY = LIST_TOP + 2 * ROW + 10
    window.dispatchEvent(new Event('scroll'))
    const reading = firstVisibleItem()
    expect(reading).toHaveTextContent('Member 3')
    const readingTop = reading?.getBoundingClientRect().top

    update(7, 6, 5, 4, 3, 2, 1)

    expect(scrollBy).toHaveBeenCalledWith(0, 2 * ROW)
    expect(firstVisibleItem()).toHaveTextContent('Member 3')
    expect(firstVisibleItem()?.getBoundingClientRect().top).toBe(readingTop)
  })

  it('shows what arrives to a reader at the top of the page', () => {
    const { update } = renderList(2, 1)
    update(3, 2, 1)
    expect(scrollBy).not.toHaveBeenCalled()
    expect(firstVisibleItem()).toHaveTextContent('Member 3')
  })

  it('slides in only the notifications that arrived while it was open', () => {
    preferReducedMotion(false)
    const { update } = renderList(2, 1)
    update(3, 2, 1)
    const [arrived, ...before] = screen.getAllByRole('listitem')
    expect(arrived).toHaveClass('animate-arrive')
    for (const item of before) expect(item).not.toHaveClass('animate-arrive')
  })

  it('moves nothing for a member who prefers reduced motion', () => {
    preferReducedMotion(true)
    const { update } = renderList(2, 1)
    update(3, 2, 1)
    expect(screen.getAllByRole('listitem')).toHaveLength(3)
    for (const item of screen.getAllByRole('listitem')) expect(item).not.toHaveClass('animate-arrive')
  })
})

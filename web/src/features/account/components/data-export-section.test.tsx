import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import type { DataExport } from '../api/get-data-export'
import { DataExportSection, fileSize } from './data-export-section'

afterEach(() => {
  vi.unstubAllGlobals()
})

const ready: DataExport = {
  status: 'ready',
  requestedAt: '2026-11-20T10:00:00.000Z',
  size: 2_450_000,
  readyAt: '2026-11-20T10:01:00.000Z',
  expiresAt: '2026-11-27T10:01:00.000Z',
}

describe('the Download my data section', () => {
  it('requests an archive and shows it being prepared', async () => {
    let state: DataExport = { status: 'none' }
    const fetch = mockFetch((_url, init) => {
      if (init.method === 'POST') {
        state = { status: 'pending', requestedAt: '2026-11-20T10:00:00.000Z' }
        return json(state, 202)
      }
      return json(state)
    })
    renderWithProviders(<DataExportSection />)
    const section = await screen.findByRole('region', { name: 'Download my data' })
    await userEvent.click(await within(section).findByRole('button', { name: 'Request my data' }))
    expect(await within(section).findByRole('status')).toHaveTextContent('Preparing your archive')
    expect(requestsOf(fetch).map(({ call }) => call)).toEqual(['GET /api/account/export', 'POST /api/account/export'])
  })

  it('offers the download of a ready archive with its size and end date', async () => {
    mockFetch(() => json(ready))
    renderWithProviders(<DataExportSection />)
    const section = await screen.findByRole('region', { name: 'Download my data' })
    const link = await within(section).findByRole('link', { name: 'Download' })
    expect(link).toHaveAttribute('href', '/api/account/export/download')
    expect(section).toHaveTextContent('2.5 MB')
  })

  it('says when preparing failed, with a way to try again', async () => {
    let state: DataExport = { status: 'failed', requestedAt: '2026-11-20T10:00:00.000Z' }
    mockFetch((_url, init) => {
      if (init.method === 'POST') state = { status: 'pending', requestedAt: '2026-11-21T10:00:00.000Z' }
      return json(state)
    })
    renderWithProviders(<DataExportSection />)
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be prepared')
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Preparing your archive')
  })
})

describe('file sizes', () => {
  it('read as people say them', () => {
    expect(fileSize(820)).toBe('820 bytes')
    expect(fileSize(14_200)).toBe('14 KB')
    expect(fileSize(3_240_000)).toBe('3.2 MB')
  })
})

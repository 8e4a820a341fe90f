import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { BlockedMember, MutedMember } from '@/lib/types'
import { aUser, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { BlockedMembers, MutedMembers, muteEnds } from './settings-lists'

afterEach(() => {
  vi.unstubAllGlobals()
})

const member = (id: number) => ({ ...aUser, id, username: `member${id}`, displayName: `Member ${id}` })

describe('the blocked members list', () => {
  it('lists them with Unblock, which unblocks and asks the list again', async () => {
    let blocked: BlockedMember[] = [
      { user: member(2), createdAt: '2026-11-01T10:00:00Z' },
      { user: member(3), createdAt: '2026-10-01T10:00:00Z' },
    ]
    const fetch = mockFetch((url, init) => {
      if (init.method === 'DELETE') {
        blocked = blocked.filter(({ user }) => url !== `/api/blocks/${user.id}`)
        return new Response(null, { status: 204 })
      }
      return json(url.startsWith('/api/blocks') ? blocked : [])
    })
    renderWithProviders(<BlockedMembers />)
    const list = await screen.findByRole('region', { name: 'Blocked members' })
    expect(await within(list).findAllByRole('listitem')).toHaveLength(2)
    expect(requestsOf(fetch)[0]?.call).toBe('GET /api/blocks?limit=20&offset=0')

    await userEvent.click(within(list).getByRole('button', { name: 'Unblock @member2' }))
    expect(await screen.findByText('Unblocked @member2')).toBeInTheDocument()
    await within(list).findByText('Member 3')
    expect(within(list).queryByText('Member 2')).not.toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('DELETE /api/blocks/2')
  })

  it('says when there is nobody', async () => {
    mockFetch(() => json([]))
    renderWithProviders(<BlockedMembers />)
    expect(await screen.findByText("You haven't blocked anyone.")).toBeInTheDocument()
  })

  it('shows more after a full page, asking for the next one', async () => {
    const fetch = mockFetch((url) => {
      const offset = Number(new URL(url, 'http://murmur').searchParams.get('offset'))
      const count = offset === 0 ? 20 : 3
      return json(Array.from({ length: count }, (_, i) => ({ user: member(offset + i + 2), createdAt: '' })))
    })
    renderWithProviders(<BlockedMembers />)
    const list = await screen.findByRole('region', { name: 'Blocked members' })
    expect(await within(list).findAllByRole('listitem')).toHaveLength(20)
    await userEvent.click(within(list).getByRole('button', { name: 'Show more' }))
    await within(list).findByText('Member 24')
    expect(within(list).getAllByRole('listitem')).toHaveLength(23)
    expect(within(list).queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('GET /api/blocks?limit=20&offset=20')
  })
})

describe('the muted members list', () => {
  it('says when each mute ends, and Unmute unmutes', async () => {
    const muted: MutedMember[] = [
      { user: member(2), createdAt: '2026-11-01T10:00:00Z', expiresAt: '2027-01-03T14:05:00Z' },
      { user: member(3), createdAt: '2026-10-01T10:00:00Z', expiresAt: null },
    ]
    const fetch = mockFetch((url, init) =>
      init.method === 'DELETE' ? new Response(null, { status: 204 }) : json(url.startsWith('/api/mutes') ? muted : []),
    )
    renderWithProviders(<MutedMembers />)
    const list = await screen.findByRole('region', { name: 'Muted members' })
    const [first, second] = await within(list).findAllByRole('listitem')
    expect(first).toHaveTextContent(muteEnds('2027-01-03T14:05:00Z'))
    expect(muteEnds('2027-01-03T14:05:00Z')).toMatch(/^Muted until Jan 3, 2027, \d{1,2}:05 [AP]M$/)
    expect(second).toHaveTextContent('Muted until you unmute')

    await userEvent.click(within(list).getByRole('button', { name: 'Unmute @member3' }))
    expect(await screen.findByText('Unmuted @member3')).toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).toContain('DELETE /api/mutes/3')
  })
})

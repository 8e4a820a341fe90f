import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { InviteTree, TreeMember } from '@/lib/types'
import { json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { InviteTreeView } from './invite-tree-view'

afterEach(() => {
  vi.unstubAllGlobals()
})

const treeMember = (id: number, username: string, extra: Partial<TreeMember> = {}): TreeMember => ({
  id,
  username,
  displayName: username.toUpperCase(),
  status: 'active',
  invitesTaken: false,
  invitedCount: 0,
  ...extra,
})

const tree: InviteTree = {
  member: treeMember(3, 'bob', { invitedCount: 2 }),
  invitedBy: treeMember(2, 'alice', { invitedCount: 1 }),
  invited: [treeMember(4, 'spam1', { status: 'suspended' }), treeMember(5, 'spam2')],
}

describe("a member's invite tree", () => {
  it('shows who invited them and whom they invited, with each one\'s standing, linked to their own trees', async () => {
    const fetch = mockFetch(() => json(tree))
    renderWithProviders(<InviteTreeView memberId={3} />)
    const by = await screen.findByRole('region', { name: 'Invited by' })
    expect(within(by).getByRole('link', { name: 'ALICE @alice, invite tree' })).toHaveAttribute('href', '/moderation/members/2')
    const invited = screen.getByRole('region', { name: 'Invited 2 members' })
    const [first, second] = within(invited).getAllByRole('listitem')
    expect(first).toHaveTextContent('@spam1')
    expect(first).toHaveTextContent('Suspended')
    expect(second).toHaveTextContent('Active')
    expect(requestsOf(fetch)[0]?.call).toBe('GET /api/moderation/members/3/invite-tree')
  })

  it('says "The instance" for a member the operator invited', async () => {
    mockFetch(() => json({ ...tree, invitedBy: null }))
    renderWithProviders(<InviteTreeView memberId={3} />)
    expect(await screen.findByRole('region', { name: 'Invited by' })).toHaveTextContent('The instance')
  })

  it('takes the invites of the member who brought a wave in, there', async () => {
    const fetch = mockFetch((_url, init) => (init.method === 'POST' ? json({}) : json(tree)))
    renderWithProviders(<InviteTreeView memberId={3} />)
    const member = await screen.findByRole('region', { name: '@bob' })
    await userEvent.click(within(member).getByRole('button', { name: 'Take invites' }))
    const dialog = await screen.findByRole('dialog', { name: 'Take invites from @bob' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason (required)' }), 'Brought in spam accounts')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Take invites' }))
    expect(await screen.findByText('Invites taken from @bob')).toBeInTheDocument()
    expect(requestsOf(fetch).filter(({ call }) => call.startsWith('POST'))).toEqual([
      { call: 'POST /api/moderation/members/3/invites', body: { allowed: false, reason: 'Brought in spam accounts' } },
    ])
  })

  it('offers to give invites back to a member who lost them', async () => {
    mockFetch(() => json({ ...tree, member: { ...tree.member, invitesTaken: true, status: 'suspended' } }))
    renderWithProviders(<InviteTreeView memberId={3} />)
    const member = await screen.findByRole('region', { name: '@bob' })
    expect(within(member).getByRole('button', { name: 'Give invites back' })).toBeInTheDocument()
    expect(within(member).getByRole('button', { name: 'Lift suspension' })).toBeInTheDocument()
    expect(member).toHaveTextContent('Invites taken')
  })
})

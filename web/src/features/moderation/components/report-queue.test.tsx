import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LogEntry, ReportGroup } from '@/lib/types'
import { aPost, aUser, json, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import { ReportQueue } from './report-queue'

afterEach(() => {
  vi.unstubAllGlobals()
})

const carol = { ...aUser, id: 3, username: 'carol', displayName: 'Carol Spam', bio: 'Followers fast' }

const earlierRemoval: LogEntry = {
  id: 40,
  createdAt: '2026-10-01T10:00:00Z',
  action: 'remove_post',
  reason: 'Link farm',
  moderatorRole: 'moderator',
  moderator: { username: 'mia', displayName: 'Mia' },
  member: { username: 'carol', displayName: 'Carol Spam' },
  postId: 5,
  until: null,
}

const postGroup: ReportGroup = {
  id: 21,
  target: 'post',
  postId: 12,
  post: aPost({
    id: 12,
    content: 'Cheap followers at example.com',
    author: { id: 3, username: 'carol', displayName: 'Carol Spam', profileImageUrl: null },
    application: { name: 'Follower Pump', website: null },
  }),
  member: carol,
  reportCount: 2,
  reports: [
    { id: 21, reason: 'spam', comment: 'Same link everywhere', createdAt: new Date().toISOString(), postText: 'Cheap followers at example.com', messages: [] },
    { id: 19, reason: 'other', comment: '', createdAt: new Date().toISOString(), postText: 'Followers! DM me', messages: [] },
  ],
  history: { earlierReports: 1, actions: [earlierRemoval] },
}

const memberGroup: ReportGroup = {
  id: 22,
  target: 'member',
  post: null,
  postId: null,
  member: { ...carol, id: 4, username: 'fakeada', displayName: 'Ada Lovelace', bio: '' },
  reportCount: 1,
  reports: [{ id: 22, reason: 'impersonation', comment: 'Pretends to be Ada', createdAt: new Date().toISOString(), postText: null, messages: [] }],
  history: { earlierReports: 0, actions: [] },
}

function setup(answer: (url: string) => Response = () => json({ ...earlierRemoval, id: 50 })) {
  const fetch = mockFetch((url, init) => (init.method === 'POST' ? answer(url) : json([postGroup, memberGroup])))
  renderWithProviders(<ReportQueue />)
  return { fetch, writes: () => requestsOf(fetch).filter(({ call }) => call.startsWith('POST')) }
}

const group = (name: RegExp) => screen.findByRole('article', { name })

describe('the reports queue', () => {
  it('shows each target with its count, reasons, comments and history, never the reporters', async () => {
    setup()
    const post = await group(/^Post by @carol$/)
    expect(post).toHaveTextContent('Reported by 2 members')
    expect(within(post).getByRole('link', { name: 'Open the post in its thread' })).toHaveAttribute('href', '/post/12')
    expect(post).toHaveTextContent('Cheap followers at example.com')
    // Moderators see which app a post came from.
    expect(post).toHaveTextContent(/Posted .* via Follower Pump/)
    const reports = within(post).getByRole('region', { name: "Reports of @carol's post" })
    // The older report was of the words before an edit: they show with it; the newer, of today's words, shows none.
    expect(within(reports).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Spam · .*Same link everywhere$/),
      expect.stringMatching(/^Other · .*The post said, when reported:Followers! DM me$/),
    ])
    const history = within(post).getByRole('region', { name: "History of @carol's post" })
    expect(history).toHaveTextContent('1 earlier report')
    expect(history).toHaveTextContent('Removed a post')
    expect(history).toHaveTextContent('Reason: Link farm')
    expect(history).toHaveTextContent('By @mia')

    const member = await group(/^Member @fakeada$/)
    expect(member).toHaveTextContent('Reported by 1 member')
    expect(within(member).queryByRole('link', { name: 'Open the post in its thread' })).not.toBeInTheDocument()
    expect(member).toHaveTextContent('Impersonation')
    expect(member).toHaveTextContent('No earlier reports or actions.')
    // a member report has nothing to remove
    expect(within(member).queryByRole('button', { name: 'Remove post' })).not.toBeInTheDocument()
    expect(within(member).getByRole('link', { name: 'Invite tree of @fakeada' })).toHaveAttribute('href', '/moderation/members/4')
  })

  it('dismisses only with a reason, and names what it did', async () => {
    const { writes } = setup()
    const post = await group(/^Post by @carol$/)
    await userEvent.click(within(post).getByRole('button', { name: 'Dismiss' }))
    const dialog = await screen.findByRole('dialog', { name: 'Dismiss the reports' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss reports' }))
    const reason = within(dialog).getByRole('textbox', { name: 'Reason (required)' })
    expect(reason).toHaveAccessibleDescription(expect.stringContaining('Give a reason: it is shown in the moderation log'))
    expect(reason).toHaveFocus()
    expect(writes()).toEqual([])

    await userEvent.type(reason, 'Not spam, a shop they own')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss reports' }))
    expect(await screen.findByText('Reports dismissed')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(within(post).getByRole('button', { name: 'Dismiss' })).toHaveFocus()
    expect(writes()).toEqual([{ call: 'POST /api/moderation/reports/21/dismiss', body: { reason: 'Not spam, a shop they own' } }])
  })

  it('removes the reported post', async () => {
    const { writes } = setup()
    const post = await group(/^Post by @carol$/)
    await userEvent.click(within(post).getByRole('button', { name: 'Remove post' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove the post' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason (required)' }), 'Spam')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove post' }))
    expect(await screen.findByText('Post removed')).toBeInTheDocument()
    expect(writes()).toEqual([{ call: 'POST /api/moderation/posts/12/remove', body: { reason: 'Spam' } }])
  })

  it('suspends for the days picked, or until lifted with no days', async () => {
    const { writes } = setup()
    const member = await group(/^Member @fakeada$/)

    await userEvent.click(within(member).getByRole('button', { name: 'Suspend' }))
    let dialog = await screen.findByRole('dialog', { name: 'Suspend @fakeada' })
    const lengths = within(dialog).getByRole('group', { name: 'For how long?' })
    expect(within(lengths).getAllByRole('radio').map((radio) => radio.parentElement?.textContent)).toEqual([
      '1 day',
      '7 days',
      '30 days',
      'Indefinitely',
    ])
    expect(within(lengths).getByRole('radio', { name: '1 day' })).toBeChecked()
    await userEvent.click(within(lengths).getByRole('radio', { name: '7 days' }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason (required)' }), 'Impersonating Ada')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend @fakeada' }))
    expect(await screen.findByText('@fakeada suspended for 7 days')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    await userEvent.click(within(member).getByRole('button', { name: 'Suspend' }))
    dialog = await screen.findByRole('dialog', { name: 'Suspend @fakeada' })
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Indefinitely' }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason (required)' }), 'Again')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend @fakeada' }))
    expect(await screen.findByText('@fakeada suspended until lifted')).toBeInTheDocument()

    expect(writes()).toEqual([
      { call: 'POST /api/moderation/members/4/suspend', body: { reason: 'Impersonating Ada', days: 7 } },
      { call: 'POST /api/moderation/members/4/suspend', body: { reason: 'Again' } },
    ])
  })

  it('takes invites away, and lifts a suspension where the member is suspended', async () => {
    const suspended = { ...memberGroup, member: { ...memberGroup.member, suspendedUntil: '2027-01-01T00:00:00Z' } }
    const fetch = mockFetch((_url, init) => (init.method === 'POST' ? json(earlierRemoval) : json([suspended])))
    renderWithProviders(<ReportQueue />)
    const member = await group(/^Member @fakeada$/)
    expect(within(member).queryByRole('button', { name: 'Suspend' })).not.toBeInTheDocument()

    await userEvent.click(within(member).getByRole('button', { name: 'Lift suspension' }))
    let dialog = await screen.findByRole('dialog', { name: 'Lift the suspension of @fakeada' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason (required)' }), 'Appeal accepted')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Lift suspension' }))
    expect(await screen.findByText('Suspension of @fakeada lifted')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())

    await userEvent.click(within(member).getByRole('button', { name: 'Take invites' }))
    dialog = await screen.findByRole('dialog', { name: 'Take invites from @fakeada' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason (required)' }), 'Invited a spam wave')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Take invites' }))
    expect(await screen.findByText('Invites taken from @fakeada')).toBeInTheDocument()

    expect(requestsOf(fetch).filter(({ call }) => call.startsWith('POST'))).toEqual([
      { call: 'POST /api/moderation/members/4/unsuspend', body: { reason: 'Appeal accepted' } },
      { call: 'POST /api/moderation/members/4/invites', body: { allowed: false, reason: 'Invited a spam wave' } },
    ])
  })

  it("shows the server's refusal and keeps the dialog open", async () => {
    setup(() => json({ message: "Moderators can't act on an admin" }, 403))
    const member = await group(/^Member @fakeada$/)
    await userEvent.click(within(member).getByRole('button', { name: 'Suspend' }))
    const dialog = await screen.findByRole('dialog', { name: 'Suspend @fakeada' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Reason (required)' }), 'Spam')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suspend @fakeada' }))
    expect(await screen.findByText("Moderators can't act on an admin")).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Suspend @fakeada' })).toBeInTheDocument()
  })

  it('says when there is nothing to look at', async () => {
    mockFetch(() => json([]))
    renderWithProviders(<ReportQueue />)
    expect(await screen.findByText('No open reports')).toBeInTheDocument()
  })

  it("shows the messages a member chose to report under their report, and nothing else of the conversation", async () => {
    const messagesGroup: ReportGroup = {
      ...memberGroup,
      id: 23,
      member: { ...carol, id: 5, username: 'pesky', displayName: 'Pesky' },
      reports: [
        {
          id: 23,
          reason: 'harassment',
          comment: 'Would not stop',
          createdAt: new Date().toISOString(),
          postText: null,
          messages: [
            { id: 71, authorUsername: 'pesky', content: 'Answer me', sentAt: new Date().toISOString() },
            { id: 72, authorUsername: 'ada', content: 'Please stop', sentAt: new Date().toISOString() },
            { id: 73, authorUsername: 'pesky', content: '', sentAt: new Date().toISOString() },
            { id: 74, authorUsername: null, content: '', sentAt: new Date().toISOString() },
          ],
        },
      ],
    }
    mockFetch(() => json([messagesGroup]))
    renderWithProviders(<ReportQueue />)
    const card = await group(/^Member @pesky$/)
    const quoted = within(card).getByRole('figure', { name: 'Reported messages' })
    expect(within(quoted).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^@pesky · .*Answer me$/),
      expect.stringMatching(/^@ada · .*Please stop$/),
      expect.stringMatching(/^@pesky · .*Message deleted$/),
      expect.stringMatching(/^Deleted member · .*Message deleted$/),
    ])
    expect(within(quoted).getAllByText('Message deleted')[0]).toHaveClass('text-muted-foreground')
  })

  it('shows no reported messages for a report without them', async () => {
    setup()
    await group(/^Member @fakeada$/)
    expect(screen.queryByText('Reported messages')).not.toBeInTheDocument()
  })
})

// A small made-up network for the screen tests: the API answered from memory.
import type { Route } from 'playwright-core'

const now = Date.now()
const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString()

export const me = {
  id: 1,
  username: 'alice',
  displayName: 'Alice Martin',
  bio: 'Writing software and sourdough. Mostly sourdough.',
  website: 'https://alice.example.com',
  profileImageUrl: null,
  headerImageUrl: null,
  createdAt: '2026-03-04T10:00:00Z',
  followerCount: 12,
  followingCount: 8,
  invitesAvailable: 2,
  email: 'alice@example.com',
}

const bob = { id: 2, username: 'bob', displayName: 'Bob Okafor', profileImageUrl: null }
const carol = { id: 3, username: 'carol', displayName: 'Carol Nguyen', profileImageUrl: null }

function post(id: number, author: typeof bob, content: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    content,
    author,
    createdAt: ago(id * 7),
    imageUrls: [],
    pollOptions: [],
    pollVotes: {},
    pollExpiresAt: null,
    myVote: null,
    replyToId: null,
    repostOfId: null,
    replyCount: 2,
    repostCount: 1,
    likeCount: 5,
    isLiked: false,
    isReposted: false,
    entities: [],
    ...extra,
  }
}

/** The mentions of `usernames` in `content`, as the server finds them. */
function mentions(content: string, ...usernames: string[]) {
  return usernames.map((username) => {
    const start = content.indexOf(`@${username}`)
    return { type: 'mention', start, end: start + username.length + 1, value: username }
  })
}

const lunch = 'Team lunch on Friday — what are we having? @alice @carol'
const poll = post(1, bob, lunch, {
  entities: mentions(lunch, 'alice', 'carol'),
  pollOptions: ['Tacos', 'Ramen', 'Pizza'],
  pollVotes: { Tacos: [3, 4, 5], Ramen: [6], Pizza: [] },
  pollExpiresAt: new Date(now + 20 * 3600_000).toISOString(),
  likeCount: 12,
  isLiked: true,
})
const image = post(2, carol, 'Sunset from the ridge trail tonight. No filter.', { imageUrls: ['/landing-poster.jpg'] })
const original = post(3, me, 'Shipped the first version of our invite flow today 🎉')
const repost = post(4, bob, '♻️', { repostOfId: 3, repostOf: original })
const mine = post(5, me, 'Hello Murmur! Real people only, please.', { likeCount: 0, repostCount: 0, replyCount: 1 })
const welcome = 'Welcome! Glad you made it @alice'
const reply = post(6, carol, welcome, { replyToId: 5, entities: mentions(welcome, 'alice') })

const deleted = post(9, carol, '', { isDeleted: true, replyCount: 1, repostCount: 0, likeCount: 0 })
const underDeleted = post(10, bob, 'Still here, even if the post above is gone.', { replyToId: 9 })
const myReply = { ...reply, author: me, id: 7, replyToId: 2 }
const myPicture = post(8, me, 'My desk this morning.', { imageUrls: ['/landing-poster.jpg'] })
/** A thread with more replies than the thread call answers (200), and 3 after them. */
const busy = post(11, bob, 'Tell me your favourite sandwich.', { replyCount: 203 })
const busyReplies = Array.from({ length: 203 }, (_, i) =>
  post(1000 + i, i % 2 ? carol : me, `Sandwich number ${i + 1}`, { replyToId: 11, createdAt: ago(500 - i), replyCount: 0 }),
)

export const feed = [poll, image, repost, mine]

// Discovery: a tag's page, trending tags and a post search.
const notes = 'Week three of #RustLang: the borrow checker and I are friends now. Notes at https://notes.example.com/rust/week-three-borrowing'
const tagged = post(14, carol, notes, {
  entities: [
    { type: 'hashtag', start: notes.indexOf('#RustLang'), end: notes.indexOf('#RustLang') + 9, value: 'RustLang' },
    { type: 'link', start: notes.indexOf('https://'), end: notes.length, value: notes.slice(notes.indexOf('https://')) },
  ],
})
const trending = ['RustLang', 'Sourdough', 'TeamLunch', 'Photography', 'Cycling', 'BookClub', 'Gardening', 'LocalNews'].map(
  (name, i) => ({ name, peopleCount: 23 - i * 3, postCount: 41 - i * 4 }),
)

// Safety and moderation: Alice is the instance's first member, so its admin.
const removedMine = post(12, me, 'Selling my old bike, DM me', { isRemoved: true, replyCount: 1, likeCount: 0, repostCount: 0 })
const unavailable = post(13, { id: 0, username: '', displayName: '', profileImageUrl: null }, '', {
  isUnavailable: true,
  replyToId: 12,
})
/** Someone in the small network as a full member record. */
function asUser(who: typeof bob) {
  return { ...me, ...who, bio: '', website: '', headerImageUrl: null, invitesAvailable: 0 }
}
const relations = { invitedBy: 'alice', isBlocking: false, isBlockedBy: false, isMuting: false, mutedUntil: null }
const dave = { id: 4, username: 'dave', displayName: 'Dave Kim', profileImageUrl: null }
const spammer = { id: 5, username: 'cheapfollows', displayName: 'Cheap Follows', profileImageUrl: null }
const removal = {
  id: 31,
  createdAt: ago(60 * 24 * 3),
  action: 'remove_post',
  reason: 'Link farm',
  moderatorRole: 'moderator',
  moderator: { username: 'alice', displayName: me.displayName },
  member: { username: spammer.username, displayName: spammer.displayName },
  postId: 40,
  until: null,
}
const moderationLog = [
  { ...removal, id: 33, createdAt: ago(20), action: 'suspend', reason: 'Spam after a warning', postId: null, until: new Date(now + 7 * 86400_000).toISOString() },
  { ...removal, id: 32, createdAt: ago(90), action: 'take_invites', reason: 'Brought in three spam accounts', member: { username: 'bob', displayName: bob.displayName }, postId: null },
  removal,
]
const reportGroups = [
  {
    id: 21,
    target: 'post',
    postId: 41,
    post: post(41, spammer, 'Get 10k followers today at cheap-follows.example — real people only!', { replyCount: 0, likeCount: 0, repostCount: 0 }),
    member: { ...me, ...spammer, bio: 'Growth hacker', website: '', invitesAvailable: 0 },
    reportCount: 2,
    reports: [
      { id: 21, reason: 'spam', comment: 'Same link under every post I make', createdAt: ago(5), postText: 'Get 10k followers today at cheap-follows.example — real people only!', messages: [] },
      { id: 18, reason: 'other', comment: null, createdAt: ago(40), postText: 'Get 10k followers today, DM me for the link', messages: [] },
    ],
    history: { earlierReports: 1, actions: [removal] },
  },
  {
    id: 22,
    target: 'member',
    post: null,
    postId: null,
    member: { ...me, ...dave, bio: 'Not the Dave you know', website: '', invitesAvailable: 0 },
    reportCount: 1,
    reports: [{ id: 22, reason: 'impersonation', comment: 'Uses my photos and name', createdAt: ago(30), postText: null, messages: [] }],
    history: { earlierReports: 0, actions: [] },
  },
  {
    id: 23,
    target: 'member',
    post: null,
    postId: null,
    member: { ...me, ...spammer, bio: 'Growth hacker', website: '', invitesAvailable: 0 },
    reportCount: 1,
    reports: [
      {
        id: 23,
        reason: 'harassment',
        comment: 'Would not stop after I said no',
        createdAt: ago(12),
        postText: null,
        messages: [
          { id: 71, authorUsername: spammer.username, content: 'Still want those followers? Last chance.', sentAt: ago(16) },
          { id: 72, authorUsername: 'alice', content: 'No thanks. Please stop writing to me.', sentAt: ago(15) },
          { id: 73, authorUsername: spammer.username, content: '', sentAt: ago(14) },
          { id: 74, authorUsername: spammer.username, content: 'You will regret this.', sentAt: ago(13) },
        ],
      },
    ],
    history: { earlierReports: 0, actions: [] },
  },
]
const treeMember = (who: typeof bob, extra: Record<string, unknown> = {}) => ({
  id: who.id,
  username: who.username,
  displayName: who.displayName,
  status: 'active',
  invitesTaken: false,
  invitedCount: 0,
  ...extra,
})
const inviteTree = {
  member: treeMember(bob, { invitedCount: 2, invitesTaken: true }),
  invitedBy: treeMember(me, { invitedCount: 1 }),
  invited: [treeMember(spammer, { status: 'suspended' }), treeMember(dave)],
}
const blocked = [{ user: { ...asUser(carol), bio: '' }, createdAt: ago(600) }]
const muted = [
  { user: asUser(dave), createdAt: ago(60), expiresAt: new Date(now + 86400_000).toISOString() },
  { user: asUser(bob), createdAt: ago(600), expiresAt: null },
]

/** One notification, or a group of them: the newest actor first. */
const notified = (n: { id: number; type: string; isRead: boolean; createdAt: string; post?: { id: number; content: string }; reason?: string }, ...actors: (typeof bob)[]) => ({
  ...n,
  groupKey: (n.type === 'like' || n.type === 'repost') && n.post ? `${n.type}-${n.post.id}` : `n-${n.id}`,
  count: actors.length,
  actors: actors.slice(0, 3),
  actor: actors[0] ?? bob,
})
const notifications = [
  notified({ id: 6, type: 'removed', isRead: false, createdAt: ago(2), post: { id: 12, content: removedMine.content }, reason: 'Selling is not allowed here' }, bob),
  notified({ id: 1, type: 'like', isRead: false, createdAt: ago(3), post: { id: 5, content: mine.content } }, bob, carol, dave, bob),
  notified({ id: 2, type: 'reply', isRead: false, createdAt: ago(9), post: { id: 6, content: reply.content } }, carol),
  notified({ id: 3, type: 'follow', isRead: true, createdAt: ago(60) }, carol),
  notified({ id: 4, type: 'mention', isRead: true, createdAt: ago(300), post: { id: 1, content: poll.content } }, bob),
  notified({ id: 5, type: 'repost', isRead: true, createdAt: ago(900), post: { id: 3, content: original.content } }, bob, carol),
]

const invites = [
  { id: 1, code: 'K7Q2M9X4TB3H', isUsed: false, usedAt: null, expiresAt: new Date(now + 6 * 86400_000).toISOString(), createdAt: ago(60) },
  { id: 2, code: 'P4W8Z1N6RC2J', isUsed: true, usedAt: ago(3000), expiresAt: new Date(now + 86400_000).toISOString(), createdAt: ago(9000) },
]

const users = [
  { ...me, ...bob, bio: 'Coffee, code, and cycling.', website: '', headerImageUrl: null, createdAt: '2026-02-01T00:00:00Z', followerCount: 40, followingCount: 22, invitesAvailable: 0 },
  { ...me, ...carol, bio: 'Photographer.', website: '', headerImageUrl: null, createdAt: '2026-05-01T00:00:00Z', followerCount: 5, followingCount: 2, invitesAvailable: 0 },
]

/** Messages: Alice's conversation with Bob (open on the Messages screen), a group, and a request from Dave. */
const dm = (id: number, author: typeof bob | null, content: string, minutes: number, removed: string | null = null) => ({
  id,
  conversationId: 7,
  author: author && asUser(author),
  content: removed ? '' : content,
  removed,
  createdAt: ago(minutes),
})
const bobsMessages = [
  dm(56, bob, 'See you there — I’ll bring the sourdough starter.', 2),
  dm(55, me, 'Perfect. Saturday at 10?', 20),
  dm(54, me, '', 21, 'deleted'),
  dm(53, bob, 'Are you still up for the bakery class?\nThey moved it to the new place on Main Street.', 60),
  dm(52, bob, 'Morning!', 61),
]
const conversation = (id: number, members: (typeof bob)[], extra: Record<string, unknown> = {}) => ({
  id,
  members: members.map(asUser),
  box: 'inbox',
  unread: false,
  muted: false,
  sentAsRequest: false,
  canSend: true,
  lastMessage: null,
  createdAt: ago(600),
  ...extra,
})
const withBob = conversation(7, [bob], { lastMessage: bobsMessages[0] })
const inbox = [
  withBob,
  conversation(8, [bob, carol], {
    unread: true,
    lastMessage: { ...dm(60, carol, 'Who’s bringing the plates?', 45), conversationId: 8 },
  }),
  conversation(10, [carol], { muted: true, lastMessage: { ...dm(70, null, '', 300, 'memberDeleted'), conversationId: 10 } }),
]
const requests = [
  conversation(9, [dave], { box: 'requests', unread: true, lastMessage: { ...dm(80, dave, 'Hi! Loved your post about bread.', 90), conversationId: 9 } }),
]

export interface FixtureOptions {
  loggedIn: boolean
}

/** Alice's sessions: this laptop, her phone, and one from before user agents were kept. */
const sessions = [
  {
    id: '0f3c2a9e8b7d6c5f4e3d2c1b0a998877',
    current: true,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    browser: 'Firefox 128',
    os: 'Linux',
    createdAt: ago(60 * 24 * 3),
    lastUsedAt: ago(2),
    network: '203.0.113.0/24',
  },
  {
    id: '1a2b3c4d5e6f708192a3b4c5d6e7f801',
    current: false,
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    browser: 'Safari 17',
    os: 'iOS',
    createdAt: ago(60 * 24 * 9),
    lastUsedAt: ago(60 * 5),
    network: '198.51.100.0/24',
  },
  {
    id: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b',
    current: false,
    userAgent: null,
    browser: null,
    os: null,
    createdAt: ago(60 * 24 * 20),
    lastUsedAt: ago(60 * 24 * 2),
    network: null,
  },
]

/** An app Alice let in (Settings' Connected apps). */
const connectedApps = [
  {
    id: 1,
    name: 'Ivory',
    website: 'https://tapbots.com/ivory',
    abilities: ['Read your feeds, posts, notifications, follows, blocks and mutes', 'Post, reply, repost, like, bookmark, follow, block and mute as you, and edit your profile'],
    connectedAt: ago(60 * 24 * 12),
    lastUsedAt: ago(15),
  },
]

/** The member's muted words, as Settings lists them: one for a time, one for good. */
const mutedWords = [
  { id: 2, text: '#spoilers', createdAt: ago(60), expiresAt: ago(-60 * 24 * 7 + 60) },
  { id: 1, text: 'election', createdAt: ago(60 * 24 * 3), expiresAt: null },
]

/** Answers every /api call from the fixtures above. */
export function fixtureHandler(options: FixtureOptions) {
  return async (route: Route) => {
    const request = route.request()
    const url = new URL(request.url())
    const path = url.pathname
    const method = request.method()
    const send = (body: unknown, status = 200) =>
      route.fulfill({ status, contentType: 'application/json', body: body === undefined ? '' : JSON.stringify(body) })

    // The live stream: its opening burst, then closed with an hour's retry, so the browser stays quiet.
    if (path === '/api/events')
      return route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 3600000\nid: 1\nevent: hello\ndata: {}\n\n' })
    if (path === '/api/auth/me' || path === '/api/auth/user')
      return options.loggedIn ? send({ ...me, role: 'admin' }) : send({ message: 'Unauthorized' }, 401)
    if (path === '/api/auth/verify')
      return url.searchParams.get('token') === 'good' ? send(me) : send({ message: 'Invalid or expired link' }, 400)
    if (path === '/api/auth/sessions') return send(sessions)
    if (path === '/api/apps') return send(connectedApps)
    if (path === '/api/auth/passkeys') return send([])
    if (path === '/api/muted-words') return send(mutedWords)
    if (path === '/api/account/export')
      return send({ status: 'ready', requestedAt: ago(30), size: 2_345_678, readyAt: ago(28), expiresAt: ago(-60 * 24 * 7 + 28) })
    if (path === '/api/objects/upload') return send({ uploadURL: `/api/objects/uploads/test-${Date.now()}` })
    if (path.startsWith('/api/objects/uploads/') && method === 'PUT') return send(undefined, 200)
    if (path === '/api/posts' && method === 'POST') {
      const body = request.postDataJSON() as { content: string; imageUrls?: string[]; pollOptions?: string[] }
      return send(post(99, me, body.content, { imageUrls: body.imageUrls ?? [], pollOptions: body.pollOptions ?? [] }), 201)
    }
    if (path === '/api/waitlist' || path.startsWith('/api/auth/request-')) return send({ message: 'ok' })
    if (path === '/api/posts/feed' || path === '/api/posts/for-you') return send(feed)
    if (path === '/api/posts/5/thread') return send({ post: mine, replies: [reply], ancestors: [] })
    if (path === '/api/posts/6/thread') return send({ post: reply, replies: [], ancestors: [mine] })
    if (path === '/api/posts/10/thread') return send({ post: underDeleted, replies: [], ancestors: [deleted] })
    if (path === '/api/posts/12/thread') return send({ post: removedMine, replies: [unavailable], ancestors: [] })
    if (path === '/api/posts/11/thread') return send({ post: busy, replies: busyReplies.slice(0, 200), ancestors: [] })
    if (path === '/api/posts/11/replies') {
      const offset = Number(url.searchParams.get('offset') ?? 0)
      return send(busyReplies.slice(offset, offset + Number(url.searchParams.get('limit') ?? 20)))
    }
    if (path === '/api/posts/500/thread' || path === '/api/users/broken') return send({ message: 'Internal server error' }, 500)
    if (/^\/api\/posts\/\d+\/thread$/.test(path)) return send({ message: 'Post not found' }, 404)
    if (path === '/api/users/alice') return send({ ...me, ...relations, invitedBy: null })
    if (path === '/api/users/bob') return send({ ...users[0], ...relations })
    if (path === '/api/users/carol') return send({ ...users[1], ...relations, isBlocking: true })
    if (path === '/api/users/dave') return send({ ...asUser(dave), ...relations, invitedBy: 'bob', isBlockedBy: true })
    if (path === '/api/users/cheapfollows') return send({ message: 'This account is suspended' }, 404)
    if (path === '/api/blocks') return send(blocked)
    if (path === '/api/mutes') return send(muted)
    if (path === '/api/moderation/reports') return send(reportGroups)
    if (path === '/api/moderation/log') return send(moderationLog)
    if (path === '/api/moderation/members/2/invite-tree') return send(inviteTree)
    if (path === '/api/reports' && method === 'POST') return send({ id: 50, reason: 'spam', comment: null, createdAt: ago(0) }, 201)
    // Alice pinned her post with a picture; Bob pinned nothing.
    if (path === '/api/users/alice/pinned') return send([{ ...myPicture, pinned: true }])
    if (/^\/api\/users\/[^/]+\/pinned$/.test(path)) return send([])
    if (path === '/api/users/alice/posts') return send([mine, original, myPicture])
    if (path === '/api/users/alice/replies') return send([myReply])
    if (path === '/api/users/alice/media') return send([myPicture])
    if (path === '/api/users/alice/likes') return send([poll])
    if (path === '/api/users/suggested') return send(users)
    if (path === '/api/trending') return send(trending)
    if (path === '/api/tags/rustlang/posts' || path === '/api/tags/RustLang/posts') return send([tagged])
    if (path === '/api/tags/rustlang' || path === '/api/tags/RustLang')
      return send({ name: 'RustLang', postCount: 12, peopleCount: 5, isFollowing: true })
    if (path === '/api/followed-tags')
      return send([
        { name: 'gardening', followedAt: ago(60 * 24 * 3) },
        { name: 'RustLang', followedAt: ago(60) },
      ])
    if (path === '/api/posts/search') return send([tagged, poll].filter((p) => p.content.toLowerCase().includes((url.searchParams.get('q') ?? '').toLowerCase())))
    if (path === '/api/users/search') return send(users.filter((u) => u.username.includes(url.searchParams.get('q') ?? '')))
    if (/^\/api\/users\/[^/]+\/(posts|replies|media|likes)$/.test(path)) return send([])
    if (/^\/api\/users\/[^/]+$/.test(path)) return send({ message: 'User not found' }, 404)
    if (/^\/api\/follows\/\d+\/status$/.test(path)) return send({ isFollowing: path.includes('/3/') })
    if (path === '/api/notifications') {
      const types = url.searchParams.get('types')?.split(',')
      return send(types ? notifications.filter((n) => types.includes(n.type)) : notifications)
    }
    if (path === '/api/notifications/unread-count') return send({ count: 2 })
    if (path === '/api/conversations/unread-count') return send({ count: 1 })
    if (path === '/api/conversations' && method === 'GET') return send(url.searchParams.get('box') === 'requests' ? requests : inbox)
    if (path === '/api/conversations/7' && method === 'GET') return send(withBob)
    if (path === '/api/conversations/7/messages') return send(bobsMessages)
    if (path === '/api/invites' && method === 'GET') return send(invites)
    if (method !== 'GET') return send(undefined, 204)
    return send({ message: 'Not found' }, 404)
  }
}

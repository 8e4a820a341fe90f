// Drives Murmur's Mastodon API with masto.js, an independently written client (web/'s
// devDependency), the way a JavaScript app signs in: an app, PKCE (S256), the member's consent
// on Murmur's consent calls, then the token. Run by tests/api/mastodon_clients.rs with
// MURMUR_BASE, MURMUR_ADA_COOKIE and MURMUR_BOB_COOKIE; exits non-zero on the first failed check.
import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'

const { createOAuthAPIClient, createRestAPIClient, createStreamingAPIClient, MastoHttpError } = await import(
  new URL('../../web/node_modules/masto/dist/index.js', import.meta.url)
)
// masto.js's streaming client uses Promise.withResolvers (Node 22); Node 20 lacks it.
Promise.withResolvers ??= function withResolvers() {
  let resolve, reject
  const promise = new Promise((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}
// Node 20 has no WebSocket of its own (masto.js reads the global one too); undici's is the one
// Node adopted later.
globalThis.WebSocket ??= (await import(new URL('../../web/node_modules/undici/index.js', import.meta.url))).WebSocket

const BASE = process.env.MURMUR_BASE
const REDIRECT = 'https://app.example/callback'
const SCOPES = 'read write follow'
/** Each signed-in client's access token (the streaming client takes it too). */
const tokens = new Map()

async function signIn(cookie) {
  const anonymous = createRestAPIClient({ url: BASE })
  const app = await anonymous.v1.apps.create({ clientName: 'masto.js', redirectUris: REDIRECT, scopes: SCOPES })
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const consent = await fetch(`${BASE}/api/oauth/authorization`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: BASE },
    body: JSON.stringify({
      clientId: app.clientId,
      redirectUri: REDIRECT,
      scope: SCOPES,
      state: 'st',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      allow: true,
    }),
  })
  assert.equal(consent.status, 200, await consent.clone().text())
  const redirectTo = new URL((await consent.json()).redirectTo)
  assert.equal(redirectTo.searchParams.get('state'), 'st')
  const oauth = createOAuthAPIClient({ url: BASE })
  const token = await oauth.token.create({
    grantType: 'authorization_code',
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    redirectUri: REDIRECT,
    code: redirectTo.searchParams.get('code'),
    codeVerifier: verifier,
  })
  assert.equal(token.tokenType, 'Bearer')
  const client = createRestAPIClient({ url: BASE, accessToken: token.accessToken })
  tokens.set(client, token.accessToken)
  return client
}

const ada = await signIn(process.env.MURMUR_ADA_COOKIE)
const bob = await signIn(process.env.MURMUR_BOB_COOKIE)

const me = await ada.v1.accounts.verifyCredentials()
assert.equal(me.username, 'ada')
const bobMe = await bob.v1.accounts.verifyCredentials()
const instance = await ada.v2.instance.fetch()
assert.equal(instance.configuration.statuses.maxCharacters, 500)
assert.equal(instance.apiVersions.mastodon, 2)

const first = await ada.v1.statuses.create({ status: 'From masto #js', poll: { options: ['yes', 'no'], expiresIn: 7200 } })
assert.deepEqual(first.tags.map((t) => t.name), ['js'])
assert.equal(first.poll.options.length, 2)
assert.equal(first.application.name, 'masto.js')

const relationship = await bob.v1.accounts.$select(me.id).follow()
assert.equal(relationship.following, true)
const home = await bob.v1.timelines.home.list({ limit: 5 })
assert.ok(home.some((s) => s.id === first.id), 'Bob reads Ada at home')
assert.equal((await bob.v1.statuses.$select(first.id).favourite()).favourited, true)
assert.equal((await bob.v1.statuses.$select(first.id).bookmark()).bookmarked, true)
assert.equal((await bob.v1.statuses.$select(first.id).reblog()).reblog.id, first.id)
assert.equal((await bob.v1.polls.$select(first.id).votes.create({ choices: [0] })).ownVotes[0], 0)

const notifications = await ada.v1.notifications.list()
assert.deepEqual(notifications.map((n) => n.type), ['reblog', 'favourite', 'follow'])
assert.equal(notifications[1].account.id, bobMe.id)

// Pages through the Link header.
const made = []
for (const n of [1, 2, 3]) made.push(await ada.v1.statuses.create({ status: `masto ${n}` }))
const pages = ada.v1.timelines.home.list({ limit: 2 }).values()
const page1 = (await pages.next()).value
const page2 = (await pages.next()).value
assert.deepEqual(page1.map((s) => s.id), [made[2].id, made[1].id])
assert.deepEqual(page2.map((s) => s.id), [made[0].id, first.id])

// Streaming over a WebSocket at the instance's streaming URL: a followed member's post and a
// notification each arrive while the stream is open, not on a later read. The bound is loose for
// a shared test machine; how fast events arrive is the benchmark's to measure.
const WITHIN_MS = 3000
const streaming = createStreamingAPIClient({
  streamingApiUrl: instance.configuration.urls.streaming,
  accessToken: tokens.get(ada),
  retry: false,
})
await streaming.prepare() // connected (masto.js connects after a back-off delay)
// The subscription is sent when iterating starts: read every event from now on into `received`.
const received = []
void (async () => {
  for await (const event of streaming.user.subscribe()) received.push(event)
})()
async function nextEvent(name, within = WITHIN_MS) {
  const deadline = Date.now() + within
  for (;;) {
    const at = received.findIndex((event) => event.event === name)
    if (at >= 0) return received.splice(at, 1)[0].payload
    if (Date.now() >= deadline) return undefined
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
await ada.v1.accounts.$select(bobMe.id).follow()
// Mastodon's WebSocket never says when a subscription is taken: Bob posts until one of his
// posts arrives (a post before the subscription is not Ada's to receive), then every event must.
const news = []
let update
for (let attempt = 0; update === undefined && attempt < 10; attempt++) {
  news.push((await bob.v1.statuses.create({ status: `News from Bob, ${attempt + 1}` })).id)
  update = await nextEvent('update', 1000)
}
assert.ok(update !== undefined && news.includes(update.id), `no post of Bob's arrived: ${update?.id}`)
await bob.v1.statuses.$select(made[2].id).favourite()
assert.equal((await nextEvent('notification'))?.type, 'favourite', `no notification within ${WITHIN_MS} ms`)
streaming.close()

// Direct messages: a direct status is a message in Murmur. Bob's app hears of it on the `direct`
// stream (a WebSocket of its own) and reads his conversations; a reply stays in the conversation.
const bobStreaming = createStreamingAPIClient({
  streamingApiUrl: instance.configuration.urls.streaming,
  accessToken: tokens.get(bob),
  retry: false,
})
await bobStreaming.prepare()
const heard = []
void (async () => {
  for await (const event of bobStreaming.direct.subscribe()) heard.push(event)
})()
// As above: Ada writes until one of her messages is heard, the subscription having no answer.
let message
let conversationEvent
for (let attempt = 0; conversationEvent === undefined && attempt < 10; attempt++) {
  message = await ada.v1.statuses.create({ status: `@bob a word in private, ${attempt + 1}`, visibility: 'direct' })
  assert.equal(message.visibility, 'direct')
  const deadline = Date.now() + 1000
  while (conversationEvent === undefined && Date.now() < deadline) {
    conversationEvent = heard.find((event) => event.event === 'conversation' && event.payload.lastStatus?.id === message.id)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
assert.ok(conversationEvent !== undefined, 'no conversation event for a message')
bobStreaming.close()
const [conversation] = await bob.v1.conversations.list()
assert.equal(conversation.lastStatus.id, message.id)
assert.deepEqual(conversation.accounts.map((account) => account.username), ['ada'])
assert.equal(conversation.unread, true)
assert.equal((await bob.v1.conversations.$select(conversation.id).read()).unread, false)
const answer = await bob.v1.statuses.create({ status: 'Gladly', visibility: 'direct', inReplyToId: message.id })
const thread = await ada.v1.statuses.$select(message.id).context.fetch()
assert.deepEqual(thread.descendants.map((status) => status.id), [answer.id])
await assert.rejects(
  ada.v1.statuses.$select(answer.id).favourite(),
  (error) => error instanceof MastoHttpError && error.statusCode === 404,
)

const found = await ada.v1.accounts.lookup({ acct: 'bob' })
assert.equal(found.id, bobMe.id)
const [standing] = await ada.v1.accounts.relationships.fetch({ id: [bobMe.id] })
assert.equal(standing.followedBy, true)

await assert.rejects(ada.v1.statuses.$select('999999999').fetch(), (error) => error instanceof MastoHttpError && error.statusCode === 404)
await assert.rejects(
  ada.v1.statuses.create({ status: 'just friends', visibility: 'unlisted' }),
  (error) => error instanceof MastoHttpError && error.statusCode === 422,
)

console.log('masto.js: every check passed')

// The post card's template for the server (crates/server/src/web/cards.rs), made from the app's own card
// (post-card.tsx, with PostContent and PostImages) so that the server draws Home's first posts
// with the app's markup and no copy of it: dist/.murmur/card.json, `{ "card": …, "content": … }`.
//
// How: the card is rendered (renderToStaticMarkup) with sample values. Each value the server
// fills in is a private-use character, a token standing for its path in what the server has
// (`post.author.username`, `time`); the few that must look like something to the card (an
// upload's URL, a link, a date) are samples swapped for their token after rendering. Each state
// of the card is a path and the values it takes (STATES); the card is rendered with each value
// in turn, and the part that differs from the first value's rendering becomes a choice between
// them; a state whose part lies inside another's is a choice inside that one's branches. The
// build fails if two states' parts overlap, if a token comes out in a form not listed here, or
// if the template, filled again, is not React's rendering for every combination of states.
// A new state is one line in STATES; a new value the server fills in is one sample in
// `sampleCard`; a value the card changes on the way (cuts, capitalises, formats) needs a sample
// of its own that the server works out, as `initial`, `time` and `shortUrl` have
// (docs/performance-web.md, "The post card's template").
const tokens = new Map() // `${as}:${path}` → its character
const holes = new Map() // character → the template's hole: { hole: path, as? }
const swaps = new Map() // sample → the token it stands for

/** The token of `path`; `as` says how the server writes the value ('text': HTML-escaped). */
function token(path, as = 'text') {
  const key = `${as}:${path}`
  if (!tokens.has(key)) {
    const char = String.fromCharCode(0xe000 + tokens.size)
    tokens.set(key, char)
    holes.set(char, as === 'text' ? { hole: path } : { hole: path, as })
  }
  return tokens.get(key)
}

/** A sample the card needs to look like something, swapped for `path`'s token after rendering. */
function sample(path, value) {
  swaps.set(value, token(path))
  return value
}

const upload = (path) => sample(path, `/objects/${String(swaps.size + 1).padStart(32, 'e')}`)
const CREATED_AT = '1999-09-09T09:09:09.999Z'
// The edit window's end as the card reads it (`editableUntil`): long past, or far ahead.
const EDITABLE_UNTIL = ['1999-09-09T10:09:09.999Z', '2999-09-09T09:09:09.999Z']
const EDITED_AT = '2009-09-09T09:09:09.999Z'
/** Around a post's text in PostContent's rendering: what is between them is the template. */
const MARK = '\uf8ff'

/** The card's states: the path the server reads, and its values in the order of the branches. */
function states() {
  const images = [0, 1, 2, 3].map((index) => upload(`post.imageUrls.${index}`))
  return [
    ['shown.repostOf', [null, true]], // "X reposted" over the original
    ['post.author.profileImageUrl', [null, upload('post.author.profileImageUrl')]], // the picture, or the initial
    ['post.replyToId', [null, token('post.replyToId')]], // "Replying to a post"
    ['post.imageUrls', [0, 1, 2, 3, 4].map((count) => images.slice(0, count))],
    ['priority', [false, true]], // one of the first posts: its images load at once
    ['post.isReposted', [false, true]],
    ['post.isLiked', [false, true]],
    ['own', [false, true]], // the member's own post: Delete rather than More actions
    ['post.isBookmarked', [false, true]],
    ['post.editedAt', [null, sample('post.editedAt', EDITED_AT)]], // "Edited" and when
    ['editable', [false, true]], // within the edit window: "Edit post" on the author's card
  ].map(([path, values]) => ({ path, values }))
}

/**
 * What the server fills a card from (`card` in crates/server/src/web/cards.rs), with samples: `shown` is the
 * feed's post, `post` what the card shows (the original, on a repost).
 */
function sampleCard() {
  const post = {
    id: token('post.id'),
    content: token('post', 'content'),
    entities: [],
    author: {
      id: 7,
      username: token('post.author.username'),
      // The initial is the name's first letter: a sample of two tokens, the first standing for it.
      displayName: sample('post.author.displayName', token('initial') + token('post.author.displayName')),
    },
    createdAt: sample('post.createdAt', CREATED_AT),
    pollOptions: [],
    pollVotes: {},
    pollExpiresAt: null,
    repostOfId: null,
    replyCount: token('post.replyCount'),
    repostCount: token('post.repostCount'),
    likeCount: token('post.likeCount'),
  }
  const reposter = { id: 8, username: token('shown.author.username'), displayName: token('shown.author.displayName') }
  const shown = { ...post, id: token('shown.id'), author: reposter }
  return { shown, post }
}

/** The card's props for a sample context, as Home's list gives them. */
function cardProps(context) {
  const { shown, post } = context
  // Each image's `alt` as the server works it out (`alts` in crates/server/src/web/cards.rs): its description,
  // or the card's words for an image without one.
  const images = post.imageUrls.map((url, index) => ({ url, alt: token(`alts.${index}`), width: null, height: null }))
  const withImages = { ...post, images, editableUntil: EDITABLE_UNTIL[context.editable ? 1 : 0] }
  return {
    post: shown.repostOf ? { ...shown, repostOf: withImages } : withImages,
    currentUserId: context.own ? post.author.id : 9,
    priority: context.priority,
  }
}

/** The branch `value` picks (`branch` in crates/server/src/web/cards.rs): an array's length, else 0 or 1 as JavaScript's truth. */
function branchOf(value, count) {
  return Math.min(Array.isArray(value) ? value.length : value ? 1 : 0, count - 1)
}

function setPath(object, path, value) {
  const keys = path.split('.')
  const last = keys.pop()
  keys.reduce((inner, key) => inner[key], object)[last] = value
}

const getPath = (object, path) => path.split('.').reduce((inner, key) => inner?.[key], object)

/** `html` with every sample and token form turned into its token; fails on one in another form. */
function tokenized(html, what) {
  let out = html
  for (const [value, char] of [...swaps].sort(([a], [b]) => b.length - a.length)) out = out.replaceAll(value, char)
  for (const [key, char] of [...tokens]) {
    const [as, path] = key.split(/:(.*)/)
    const encoded = encodeURIComponent(char)
    if (as === 'text' && out.includes(encoded)) out = out.replaceAll(encoded, token(path, 'uri'))
  }
  const stray = [...out].find((char) => char >= '\ue000' && char <= '\uf8ff' && !holes.has(char) && char !== MARK)
  const references = [...out.matchAll(/&#(x[0-9a-f]+|\d+);/gi)].map(([, n]) => Number(n[0] === 'x' ? `0${n}` : n))
  if (stray || /%E[EF]%/i.test(out) || references.some((code) => code >= 0xe000 && code <= 0xf8ff)) {
    throw new Error(`the ${what} holds a sample value in a form the template does not know:\n${html}`)
  }
  return out
}

/** Literal markup and holes. */
function nodes(text) {
  const out = []
  let run = ''
  for (const char of text) {
    const hole = holes.get(char)
    if (!hole) {
      run += char
      continue
    }
    if (run) out.push(run)
    out.push(hole)
    run = ''
  }
  if (run) out.push(run)
  return out
}

/** How many characters `a` and `b` have in common at the start, and then at the end. */
function common(a, b) {
  let start = 0
  while (start < a.length && a[start] === b[start]) start++
  let end = 0
  while (end < Math.min(a.length, b.length) - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  return [start, end]
}

/**
 * The template, and how many renderings it was checked against. `app`: the renderers of
 * src/app/prepaint.tsx and `relativeTime`, as Vite loaded them.
 */
export function cardTemplate({ renderPostCard, renderPostContent, relativeTime }) {
  // The time as the card writes it ("27 years ago"): the server writes it for each post.
  sample('time', relativeTime(CREATED_AT))
  sample('editedTime', relativeTime(EDITED_AT))
  const STATES = states()
  for (const { path, values } of STATES) {
    values.forEach((value, index) => {
      const branch = branchOf(value, values.length)
      if (branch !== index) throw new Error(`${path}'s value ${index} would take branch ${branch}`)
    })
  }
  const rendered = new Map()
  const shown = new Set() // the states that make a difference somewhere
  /** The card with each state at the value of that index, tokenized. */
  const render = (assign) => {
    const key = JSON.stringify(STATES.map(({ path }) => assign[path]))
    if (!rendered.has(key)) {
      const context = sampleCard()
      for (const { path, values } of STATES) setPath(context, path, values[assign[path]])
      // React writes a preload of a first image before the card: the document has the server's.
      const html = renderPostCard(cardProps(context)).replace(/^(<link rel="preload"[^>]*>)*/, '')
      if (!html.startsWith('<article ') || !html.endsWith('</article>')) throw new Error(`not one card:\n${html}`)
      rendered.set(key, { html: tokenized(html, 'card'), context })
    }
    return rendered.get(key)
  }

  /** The template of `assign`'s rendering from `lo` to `hi` characters before its end, for each value of the `free` states. */
  function build(assign, free, lo, hi) {
    const base = render(assign).html
    const end = base.length - hi
    const found = []
    const idle = []
    for (const state of free) {
      let from = end
      let to = lo
      let changed = false
      state.values.forEach((_, index) => {
        const other = render({ ...assign, [state.path]: index }).html
        if (other === base) return
        changed = true
        const [start, tail] = common(base, other)
        if (start < lo || tail < hi) throw new Error(`${state.path} changes the card outside the part that holds it`)
        from = Math.min(from, start)
        to = Math.max(to, base.length - tail)
      })
      if (!changed) {
        idle.push(state)
        continue
      }
      shown.add(state.path)
      // Whole tags: a branch reads as markup, not as the end of one class and the start of another.
      from = Math.max(lo, base.lastIndexOf('>', from - 1) + 1)
      to = Math.min(end, base.indexOf('>', to - 1) + 1 || end)
      found.push({ state, from, to })
    }
    // Whether `a`'s part lies in `b`'s (of two equal parts, the later state's in the earlier's).
    const inside = (a, b) =>
      a !== b && b.from <= a.from && a.to <= b.to && (b.from < a.from || a.to < b.to || found.indexOf(b) < found.indexOf(a))
    const outer = found.filter((a) => !found.some((b) => inside(a, b))).sort((a, b) => a.from - b.from)
    for (const [index, a] of outer.entries()) {
      const next = outer[index + 1]
      if (next && next.from < a.to) {
        throw new Error(`${a.state.path} and ${next.state.path} change overlapping parts of the card`)
      }
    }
    const out = []
    let at = lo
    for (const part of outer) {
      out.push(...nodes(base.slice(at, part.from)))
      const within = [...found.filter((a) => inside(a, part)).map((a) => a.state), ...idle]
      const branches = part.state.values.map((_, index) =>
        build({ ...assign, [part.state.path]: index }, within, part.from, base.length - part.to),
      )
      out.push({ choose: part.state.path, branches })
      at = part.to
    }
    out.push(...nodes(base.slice(at, end)))
    return out
  }

  const first = Object.fromEntries(STATES.map(({ path }) => [path, 0]))
  const card = build(first, STATES, 0, 0)
  const unseen = STATES.filter(({ path }) => !shown.has(path))
  if (unseen.length > 0) throw new Error(`the card looks the same whatever ${unseen.map(({ path }) => path).join(', ')}`)

  // Filled again with the tokens, the template must be React's rendering of every combination.
  const fill = (template, context) =>
    template
      .map((node) => {
        if (typeof node === 'string') return node
        if ('hole' in node) return tokens.get(`${node.as ?? 'text'}:${node.hole}`)
        return fill(node.branches[branchOf(getPath(context, node.choose), node.branches.length)], context)
      })
      .join('')
  let combinations = [first]
  for (const { path, values } of STATES) {
    combinations = combinations.flatMap((assign) => values.map((_, index) => ({ ...assign, [path]: index })))
  }
  for (const assign of combinations) {
    const { html, context } = render(assign)
    if (fill(card, context) !== html) throw new Error(`the template does not draw the card with ${JSON.stringify(assign)}`)
  }

  // A post's text: each entity, and the plain text between them, as PostContent draws it.
  const part = (entity) => {
    const text = token('text')
    const entities = entity ? [{ ...entity, start: 1, end: 2 }] : []
    const html = tokenized(renderPostContent({ text: `${MARK}${text}${MARK}`, entities }), 'post text')
    const pieces = html.split(MARK)
    if (pieces.length !== 3) throw new Error(`the post text is not drawn between its marks:\n${html}`)
    return nodes(pieces[1])
  }
  const content = {
    text: part(null),
    mention: part({ type: 'mention', value: token('value') }),
    hashtag: part({ type: 'hashtag', value: token('value') }),
    // PostContent shows a link shortened: its sample is a token after the scheme, which shortUrl removes.
    link: part({ type: 'link', value: sample('value', `https://${token('shortUrl')}`) }),
  }

  const drawn = new Set(JSON.stringify({ card, content }).match(/"hole":"[^"]*"/g))
  const missing = [...holes.values()].filter(({ hole }) => !drawn.has(`"hole":"${hole}"`))
  if (missing.length > 0) throw new Error(`the card no longer draws ${missing.map(({ hole }) => hole).join(', ')}`)
  return { template: { card, content }, combinations: combinations.length }
}

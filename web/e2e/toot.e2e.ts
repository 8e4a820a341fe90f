// `toot`, the Mastodon command-line client (PyPI, installed beside Mastodon.py by
// scripts/install-test-deps.sh), used as a member uses it against the real `murmur serve`: its own
// login (`toot login` prints `/oauth/authorize/?…`, opened here in Chromium, where the member
// allows it and pastes the code back), then its everyday commands. Skips, saying why, when the
// server binary or toot is missing (a failure under MURMUR_REQUIRE_SERVICES=1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { screenshot } from './support/browser'
import { startAdaAndBob, type AdaAndBob, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'
import { makePng } from './support/png.mjs'

const PYTHON = process.env.MURMUR_TEST_PYTHON ?? join(homedir(), '.cache/murmur/test-services/venv/bin/python')
const TOOT = join(dirname(PYTHON), 'toot')
const hasToot = existsSync(TOOT)

if (!hasMurmur) console.warn(`\nSKIPPED the toot journey: no server binary at ${MURMUR_BIN}.\n`)
if (!hasToot) {
  const reason = `no toot at ${TOOT}; run scripts/install-test-deps.sh`
  if (process.env.MURMUR_REQUIRE_SERVICES === '1') throw new Error(`MURMUR_REQUIRE_SERVICES=1 but ${reason}`)
  console.warn(`\nSKIPPED the toot journey: ${reason}.\n`)
}

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** A member's toot: its own configuration folder, so two members keep two logins. */
class Toot {
  readonly config = mkdtempSync(join(tmpdir(), 'murmur-toot-'))

  private env() {
    return { ...process.env, XDG_CONFIG_HOME: this.config, PYTHONUNBUFFERED: '1', COLUMNS: '100' }
  }

  /** Runs `toot args…` to its end; fails the test unless it exits 0. */
  async run(...args: string[]): Promise<string> {
    const result = await new Promise<Run>((resolve, reject) => {
      const child = spawn(TOOT, args, { env: this.env(), stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, stdout, stderr }))
    })
    expect(result.code, `toot ${args.join(' ')}:\n${result.stdout}\n${result.stderr}`).toBe(0)
    return result.stdout
  }

  /** `toot args… --json`, parsed. */
  async json<T = Record<string, unknown>>(...args: string[]): Promise<T> {
    return JSON.parse(await this.run(...args, '--json')) as T
  }

  /**
   * `toot login`: toot registers itself and prints the consent page's address; the member opens
   * it in their browser, allows toot, and types the code it shows into toot.
   */
  async login(server: string, member: Member, screenshotName?: string): Promise<string> {
    const child = spawn(TOOT, ['login', '--instance', server], { env: this.env(), stdio: ['pipe', 'pipe', 'pipe'] })
    let output = ''
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    const loginUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const url = output.match(/^(https?:\/\/\S+\/oauth\/authorize\S*)$/m)?.[1]
        if (url) resolve(url)
      })
      child.on('close', () => reject(new Error(`toot login ended early:\n${output}`)))
    })
    // Not in a browser of toot's own choosing: in the member's, below.
    child.stdin.write('n\n')
    expect(new URL(loginUrl).pathname).toBe('/oauth/authorize/')
    const page = member.page
    await page.goto(loginUrl)
    await page
      .getByRole('heading', { name: `toot - a Mastodon CLI client wants to read and write as @${member.username}` })
      .waitFor({ timeout: 15_000 })
    expect(new URL(page.url()).pathname, 'the address is the page’s own, without the slash').toBe('/oauth/authorize')
    if (screenshotName) await screenshot(page, screenshotName)
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.getByRole('heading', { name: 'toot - a Mastodon CLI client is connected' }).waitFor()
    const code = (await page.locator('output').textContent())?.trim() ?? ''
    child.stdin.end(`${code}\n`)
    expect(await exited, output).toBe(0)
    expect(output).toContain('Successfully logged in')
    return output
  }

  remove() {
    rmSync(this.config, { recursive: true, force: true })
  }
}

interface Status {
  id: string
  content: string
  in_reply_to_id: string | null
  media_attachments: { description: string | null; type: string }[]
  poll: { id: string; options: { title: string; votes_count: number }[] } | null
  favourited: boolean
  reblogged: boolean
}

describe.skipIf(!hasMurmur || !hasToot)('a member using toot', () => {
  let world: AdaAndBob
  const ada = new Toot()
  const bob = new Toot()
  const files = mkdtempSync(join(tmpdir(), 'murmur-toot-files-'))

  beforeAll(async () => {
    world = await startAdaAndBob()
  })

  afterAll(async () => {
    await world?.close()
    for (const toot of [ada, bob]) toot.remove()
    rmSync(files, { recursive: true, force: true })
  })

  it('signs in through the consent page and posts, pins, replies, likes, boosts, follows, lists, blocks and searches', async () => {
    await ada.login(world.server.url, world.ada, 'toot-consent-1280')
    await bob.login(world.server.url, world.bob)
    expect((await ada.json('whoami')).username).toBe('ada')
    expect((await bob.json('whoami')).username).toBe('bob')

    // A post with an image and its description, and a poll.
    const loaf = join(files, 'loaf.png')
    writeFileSync(loaf, makePng(320, 240, 30))
    const withImage = await ada.json<Status>('post', 'Fresh bread #baking', '--media', loaf, '--description', 'A round loaf on a board')
    expect(withImage.content).toContain('Fresh bread')
    expect(withImage.media_attachments.map(({ type, description }) => ({ type, description }))).toEqual([
      { type: 'image', description: 'A round loaf on a board' },
    ])
    const poll = await ada.json<Status>('post', 'Rye or spelt?', '--poll-option', 'Rye', '--poll-option', 'Spelt', '--poll-expires-in', '1h')
    expect(poll.poll?.options.map(({ title }) => title)).toEqual(['Rye', 'Spelt'])

    // Ada pins the loaf to her profile, and unpins it.
    expect(await ada.run('pin', withImage.id)).toContain('Status pinned')
    expect((await ada.json<Status & { pinned?: boolean }>('status', withImage.id)).pinned).toBe(true)
    expect(await ada.run('unpin', withImage.id)).toContain('Status unpinned')
    expect((await ada.json<Status & { pinned?: boolean }>('status', withImage.id)).pinned).toBe(false)

    // Bob, who follows Ada, reads his timeline, replies, likes, boosts and votes.
    const timeline = await bob.run('timeline', '--once')
    expect(timeline).toContain('Fresh bread')
    expect(timeline).toContain('Rye or spelt?')
    const reply = await bob.json<Status>('post', 'Looks wonderful', '--reply-to', withImage.id)
    expect(reply.in_reply_to_id).toBe(withImage.id)
    expect((await bob.json<Status>('favourite', withImage.id)).favourited).toBe(true)
    const boosted = await bob.json<{ reblog: Status | null }>('reblog', withImage.id)
    expect(boosted.reblog?.id).toBe(withImage.id)
    const voted = await bob.json<{ options: { votes_count: number }[] }>('polls', 'vote', poll.poll?.id ?? '', '1')
    expect(voted.options.map(({ votes_count }) => votes_count)).toEqual([0, 1])
    await bob.run('post', 'Proofing overnight')

    // Ada's notifications name each.
    const notifications = await ada.json<{ type: string; account: { acct: string } }[]>('notifications')
    expect(new Set(notifications.map(({ type, account }) => `${type} ${account.acct}`))).toEqual(
      new Set(['mention bob', 'favourite bob', 'reblog bob', 'follow bob']),
    )

    // Following, a list, search.
    expect(await ada.run('follow', 'bob')).toContain('You are now following bob')
    expect(await ada.run('lists', 'create', 'Bakers')).toContain('List "Bakers" created')
    expect(await ada.run('lists', 'add', 'Bakers', 'bob')).toContain('Added account "bob"')
    const members = await ada.json<{ acct: string }[]>('lists', 'accounts', 'Bakers')
    expect(members.map(({ acct }) => acct)).toEqual(['bob'])
    expect(await ada.run('timeline', '--list', 'Bakers', '--once')).toContain('Proofing overnight')
    expect(await ada.run('lists', 'remove', 'Bakers', 'bob')).toContain('Removed account "bob"')
    expect(await ada.json<unknown[]>('lists', 'accounts', 'Bakers')).toEqual([])
    expect(await ada.run('lists', 'delete', 'Bakers')).toContain('List "Bakers" deleted')
    const found = await ada.json<{ accounts: { acct: string }[]; hashtags: { name: string; following: boolean }[] }>('search', 'bob')
    expect(found.accounts.map(({ acct }) => acct)).toContain('bob')
    const tags = await ada.json<{ hashtags: { name: string; following: boolean }[] }>('search', '#baking')
    expect(tags.hashtags).toEqual([expect.objectContaining({ name: 'baking', following: false })])

    // Blocking and unblocking: toot finds the blocked member again to unblock them.
    expect(await ada.run('block', 'bob')).toContain('You are now blocking bob')
    expect(await ada.run('blocked')).toContain('bob')
    expect(await ada.run('whois', 'bob')).toContain('@bob')
    expect(await ada.run('unblock', 'bob')).toContain('bob is no longer blocked')
    expect(await ada.run('blocked')).toContain('No accounts blocked')
  })
})

// Starts the real `murmur serve` on a free port with a fresh data directory, and reads its outbox.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export const MURMUR_BIN = resolve(process.env.MURMUR_BIN ?? new URL('../../../target/debug/murmur', import.meta.url).pathname)
export const hasMurmur = existsSync(MURMUR_BIN)

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => done(port))
    })
  })
}

export interface MurmurServer {
  url: string
  dataDir: string
  log: () => string
  createInvite: () => Promise<string>
  /** The invite `murmur serve` printed on its first start with no members, if it did. */
  firstStartInvite: () => string | undefined
  /** `murmur role set <username> <role>`, as an operator would. */
  setRole: (username: string, role: 'member' | 'moderator' | 'admin') => Promise<void>
  magicLinkFor: (email: string, after?: number) => Promise<string>
  /** The newest link to `path` e-mailed to `email` after time `after` (ms since epoch). */
  linkFor: (email: string, path: string, after?: number) => Promise<string>
  stop: () => Promise<void>
}

/** Decodes quoted-printable soft line breaks and escapes well enough to find a link. */
export function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

export function findVerifyLink(eml: string): string | undefined {
  return findLink(eml, '/auth/verify')
}

/** The first link in `eml` to `path` with a query (`/auth/verify`, `/auth/confirm-email`). */
export function findLink(eml: string, path: string): string | undefined {
  const decoded = decodeQuotedPrintable(eml)
  const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  const match = decoded.match(new RegExp(`https?://[^\\s"'<>]+${escaped}\\?[^\\s"'<>]+`))
  return match?.[0].replace(/&amp;/g, '&')
}

/**
 * `host`: the name the instance is reached at (its public URL). `localhost` where a journey needs
 * a domain name (passkeys: WebAuthn refuses an IP address as a site); it still listens on 127.0.0.1.
 */
export async function startMurmur(options: { host?: 'localhost' | '127.0.0.1' } = {}): Promise<MurmurServer> {
  const port = await freePort()
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`
  const listening = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'murmur-e2e-'))
  let output = ''
  const child: ChildProcess = spawn(MURMUR_BIN, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir], {
    env: { ...process.env, MURMUR_PUBLIC_URL: url, RUST_LOG: process.env.RUST_LOG ?? 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))

  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`murmur serve exited early (${child.exitCode}):\n${output}`)
    try {
      const response = await fetch(`${listening}/api/auth/me`)
      if (response.status === 401 || response.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`murmur serve did not answer on ${url}:\n${output}`)
    await new Promise((r) => setTimeout(r, 250))
  }

  const outbox = join(dataDir, 'outbox')

  /** The newest link to `path` e-mailed to `email` after time `after` (ms since epoch). */
  async function linkFor(email: string, path: string, after = 0): Promise<string> {
    const until = Date.now() + 15_000
    for (;;) {
      if (existsSync(outbox)) {
        const files = readdirSync(outbox)
          .filter((name) => name.endsWith('.eml'))
          .map((name) => join(outbox, name))
          .filter((file) => statSync(file).mtimeMs >= after - 1000)
          .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
        for (const file of files) {
          const text = readFileSync(file, 'utf8')
          if (!decodeQuotedPrintable(text).toLowerCase().includes(email.toLowerCase())) continue
          const link = findLink(text, path)
          if (link) return link
        }
      }
      if (Date.now() > until) throw new Error(`no ${path} link for ${email} in ${outbox}\n${output}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  }

  return {
    url,
    dataDir,
    log: () => output,
    async createInvite() {
      const { stdout } = await run(MURMUR_BIN, ['invite', 'create', '--count', '1', '--data-dir', dataDir], {
        env: { ...process.env, MURMUR_PUBLIC_URL: url },
      })
      const code = stdout
        .split('\n')
        .map((line) => line.trim())
        .find((line) => /^[A-Z0-9]{12}$/.test(line))
      if (!code) throw new Error(`no invite code in: ${stdout}`)
      return code
    },
    firstStartInvite() {
      return output.match(/Sign up as the first one with this invite code:\s+([A-Z0-9]{12})\b/)?.[1]
    },
    async setRole(username: string, role: 'member' | 'moderator' | 'admin') {
      await run(MURMUR_BIN, ['role', 'set', username, role, '--data-dir', dataDir], {
        env: { ...process.env, MURMUR_PUBLIC_URL: url },
      })
    },
    /** The newest verify link e-mailed to `email` after time `after` (ms since epoch). */
    magicLinkFor: (email: string, after = 0) => linkFor(email, '/auth/verify', after),
    linkFor,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((r) => setTimeout(r, 300))
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The longest page a sign-in leads on to (the server's limit). */
const RETURN_PATH_MAX = 512

/**
 * `value` when it is a page of this site to open once signed in (`/post/42`), else null: a path
 * that starts with one `/`, without `//` (another site), a backslash (which browsers read as `/`),
 * spaces or control characters. The server checks the same before it puts one in a link; this is
 * checked again before going there, so an edited link cannot lead away.
 */
export function returnPath(value: string | null | undefined): string | null {
  if (!value || value.length > RETURN_PATH_MAX) return null
  if (!value.startsWith('/') || value.includes('//') || value.includes('\\')) return null
  if (!/^[\x21-\x7e]+$/.test(value)) return null
  // However a browser reads it, it stays on this site.
  const base = new URL('https://murmur.invalid/')
  try {
    return new URL(value, base).origin === base.origin ? value : null
  } catch {
    return null
  }
}

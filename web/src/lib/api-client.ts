// The one client for every call to the Murmur API (spec §7, §8).

/** An error from a non-ok answer; `message` is "status: body text" (or status text if the body is empty). */
export class ApiError extends Error {
  readonly status: number
  readonly statusText: string
  readonly body: string

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`)
    this.name = 'ApiError'
    this.status = status
    this.statusText = statusText
    this.body = body
  }

  /** The server's `{"message": "..."}`, if the body is one. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body)
      if (parsed && typeof parsed === 'object' && 'message' in parsed) {
        const message = parsed.message
        if (typeof message === 'string' && message) return message
      }
    } catch {
      // not JSON: no server message
    }
    return undefined
  }
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError ? error.status === 401 : error instanceof Error && error.message.startsWith('401')
}

/** The server's message when it refused the request (4xx), else the fallback text: a 5xx says nothing a member can act on. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return error.serverMessage ?? fallback
  return fallback
}

export async function apiRequest(
  method: string,
  url: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...extraHeaders, 'X-Requested-With': 'murmur' }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
  })
  if (!response.ok) {
    const text = await response.text()
    throw new ApiError(response.status, response.statusText, text)
  }
  return response
}

/** Parsed JSON of an ok answer; undefined for 204 and empty bodies. */
async function json<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T
  const text = await response.text()
  return (text ? JSON.parse(text) : undefined) as T
}

export const api = {
  get: async <T>(url: string) => json<T>(await apiRequest('GET', url)),
  post: async <T>(url: string, body?: unknown, headers?: Record<string, string>) =>
    json<T>(await apiRequest('POST', url, body, headers)),
  put: async <T>(url: string, body?: unknown) => json<T>(await apiRequest('PUT', url, body)),
  patch: async <T>(url: string, body?: unknown) => json<T>(await apiRequest('PATCH', url, body)),
  delete: async <T = void>(url: string, body?: unknown) => json<T>(await apiRequest('DELETE', url, body)),
}

import { afterEach, describe, expect, it, vi } from 'vitest'
import { api, ApiError, messageOf } from './api-client'
import { json, mockFetch } from '@/test/test-utils'

afterEach(() => vi.unstubAllGlobals())

describe('the api client', () => {
  it('turns a non-ok answer into "status: body text"', async () => {
    mockFetch(() => new Response('{"message":"Invalid or expired invite code"}', { status: 400, statusText: 'Bad Request' }))
    const error = await api.post('/api/auth/request-magic-link', { email: 'a@b.c', inviteCode: 'X' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as Error).message).toBe('400: {"message":"Invalid or expired invite code"}')
    expect(messageOf(error, 'fallback')).toBe('Invalid or expired invite code')
  })

  it('uses the status text when the body is empty', async () => {
    mockFetch(() => new Response('', { status: 503, statusText: 'Service Unavailable' }))
    await expect(api.get('/api/posts/feed')).rejects.toThrow('503: Service Unavailable')
  })

  it('falls back when the body carries no message', async () => {
    mockFetch(() => new Response('oops', { status: 500, statusText: 'Internal Server Error' }))
    const error = await api.get('/api/x').catch((e: unknown) => e)
    expect(messageOf(error, 'Failed to join waitlist. Please try again.')).toBe('Failed to join waitlist. Please try again.')
  })

  it('sends cookies and the murmur header, and a JSON content type only with a body', async () => {
    const fetch = mockFetch(() => json({ ok: true }))
    await api.post('/api/waitlist', { email: 'a@b.c' })
    await api.post('/api/objects/upload')
    const [withBody, withoutBody] = fetch.mock.calls.map(([, init]) => init as RequestInit)
    expect(withBody?.credentials).toBe('include')
    expect(withBody?.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Requested-With': 'murmur' })
    expect(withBody?.body).toBe('{"email":"a@b.c"}')
    expect(withoutBody?.headers).toEqual({ 'X-Requested-With': 'murmur' })
    expect(withoutBody?.body).toBeUndefined()
  })

  it('answers undefined for 204', async () => {
    mockFetch(() => new Response(null, { status: 204 }))
    await expect(api.delete('/api/posts/1')).resolves.toBeUndefined()
  })
})

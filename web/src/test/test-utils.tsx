import * as React from 'react'
import { render } from '@testing-library/react'
import type { QueryClient } from '@tanstack/react-query'
import { vi } from 'vitest'
import { AppProvider } from '@/app/provider'
import { createQueryClient } from '@/lib/query-client'
import type { Conversation, Message, Post, Profile, User } from '@/lib/types'

/** Renders `ui` in the app's providers; `rerender` keeps them (and the query client) around the new element. */
export function renderWithProviders(ui: React.ReactElement, queryClient: QueryClient = createQueryClient()) {
  const inProviders = (element: React.ReactElement) => <AppProvider queryClient={queryClient}>{element}</AppProvider>
  const result = render(inProviders(ui))
  return { ...result, queryClient, rerender: (element: React.ReactElement) => result.rerender(inProviders(element)) }
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>

/** Replaces fetch with a handler and returns the mock so tests can read the calls. */
export function mockFetch(handler: Handler) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => handler(urlOf(input), init))
  vi.stubGlobal('fetch', fn)
  return fn
}

/** The address a fetch call asked for, whichever form it was given in. */
export function urlOf(input: RequestInfo | URL): string {
  if (typeof input === 'string') return input
  return input instanceof URL ? input.href : input.url
}

/** The JSON a fetch call sent (the API client always sends a string). */
export function jsonBody(init: RequestInit | undefined): unknown {
  if (typeof init?.body !== 'string') throw new Error('expected a JSON string body')
  return JSON.parse(init.body)
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

export const aUser: User = {
  id: 1,
  username: 'ada',
  displayName: 'Ada Lovelace',
  bio: 'First programmer',
  website: 'https://ada.example',
  profileImageUrl: null,
  headerImageUrl: null,
  createdAt: '2026-01-15T10:00:00Z',
  followerCount: 2,
  followingCount: 3,
  invitesAvailable: 3,
  email: 'ada@example.com',
}

export function aPost(overrides: Partial<Post> = {}): Post {
  return {
    id: 10,
    content: 'Hello @grace, nice to meet you',
    author: { id: 2, username: 'grace', displayName: 'Grace Hopper', profileImageUrl: null },
    createdAt: new Date().toISOString(),
    entities: [],
    imageUrls: [],
    images: [],
    pollOptions: [],
    pollVotes: {},
    pollExpiresAt: null,
    myVote: null,
    myVotes: [],
    pinned: false,
    pollMultiple: false,
    replyToId: null,
    repostOfId: null,
    quoteOfId: null,
    quoteOf: null,
    quoteDetached: false,
    quotesAllowed: true,
    replyCount: 0,
    repostCount: 1,
    likeCount: 4,
    isLiked: false,
    isReposted: false,
    isBookmarked: false,
    isDeleted: false,
    isUnavailable: false,
    isRemoved: false,
    ...overrides,
  }
}

/** Grace's profile as another member sees it: no block, no mute; invited by Ada. */
export function aProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    ...aUser,
    id: 2,
    username: 'grace',
    displayName: 'Grace Hopper',
    email: undefined,
    invitedBy: 'ada',
    isBlocking: false,
    isBlockedBy: false,
    isMuting: false,
    mutedUntil: null,
    isSuspended: false,
    ...overrides,
  }
}

/** The requests a fetch mock saw, as "METHOD url" with the JSON body if any. */
export function requestsOf(fetch: ReturnType<typeof mockFetch>): { call: string; body?: unknown }[] {
  return fetch.mock.calls.map(([input, init = {}]) => ({
    call: `${init.method ?? 'GET'} ${urlOf(input)}`,
    ...(typeof init.body === 'string' ? { body: JSON.parse(init.body) as unknown } : {}),
  }))
}

/** Grace as a conversation shows her (a public record: no e-mail). */
export const grace: User = { ...aUser, id: 2, username: 'grace', displayName: 'Grace Hopper', email: undefined }

/** A message in conversation 7, by Grace unless told. */
export function aMessage(overrides: Partial<Message> = {}): Message {
  return {
    id: 100,
    conversationId: 7,
    author: grace,
    content: 'Hello Ada',
    removed: null,
    createdAt: new Date().toISOString(),
    ...overrides,
  }
}

/** Ada's conversation 7 with Grace, in her inbox, nothing unread. */
export function aConversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    id: 7,
    members: [grace],
    box: 'inbox',
    unread: false,
    muted: false,
    sentAsRequest: false,
    canSend: true,
    lastMessage: null,
    createdAt: new Date().toISOString(),
    ...overrides,
  }
}

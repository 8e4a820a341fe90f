import { afterEach, describe, expect, it, vi } from 'vitest'
import { DRAFT_KEY_PREFIX, MESSAGE_DRAFT_KEY_PREFIX, forgetMemberStorage } from './member-storage'
import { sendToLogin } from './unauthorized'

const DRAFT = `${DRAFT_KEY_PREFIX}1:home`

afterEach(() => {
  sessionStorage.clear()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe("a member's storage in this browser", () => {
  it('is forgotten, drafts of posts and messages in every place and storage, while the browser keeps its own choices', () => {
    localStorage.setItem(DRAFT, '{"content":"A secret half-thought"}')
    localStorage.setItem(`${DRAFT_KEY_PREFIX}2:reply:7`, '{"content":"Another"}')
    sessionStorage.setItem(`${DRAFT_KEY_PREFIX}1:dialog`, '{"content":"Unsaved"}')
    localStorage.setItem(`${MESSAGE_DRAFT_KEY_PREFIX}1:4`, '{"content":"Between us"}')
    localStorage.setItem('vite-ui-theme', 'dark')

    forgetMemberStorage()

    expect(Object.keys(localStorage)).toEqual(['vite-ui-theme'])
    expect(sessionStorage.length).toBe(0)
  })

  it('is forgotten at once when a 401 or an ended session sends the member to log in', () => {
    vi.useFakeTimers()
    vi.stubGlobal('location', { ...window.location, set href(_value: string) {} })
    localStorage.setItem(DRAFT, '{"content":"A secret half-thought"}')

    sendToLogin()

    expect(localStorage.getItem(DRAFT)).toBeNull()
  })
})

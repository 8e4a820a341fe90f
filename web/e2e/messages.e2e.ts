// Messages in a real browser against the real `murmur serve`: Ada messages Bob from his profile
// (Bob follows her, so it lands in his inbox); Bob sees the unread badge, opens it and replies
// (Enter sends, Shift+Enter starts a new line); Cyd, whom Bob does not follow, is refused until
// Bob allows messages from everyone, then her request waits under Requests until he accepts it;
// with the conversation open, Bob sees Ada's new message and her deletion ("Message deleted")
// as they happen; Bob reports one of Ada's messages, and Cyd, made a moderator, reads only that
// message (and the one of his he sent with it) in the queue; older messages load above, the reader's
// place kept. Screenshots at 360 and 1280 px, light and dark, go to /tmp/murmur-messages-screenshots.
// Skips, saying why, when the server binary is missing.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DESKTOP, PHONE, newContext } from './support/browser'
import { expectFailures } from './support/guard'
import {
  call,
  darkPage,
  expectAccessible,
  noHorizontalScroll,
  signUp,
  startAdaAndBob,
  type AdaAndBob,
  type Member,
} from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the messages journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const SHOTS = '/tmp/murmur-messages-screenshots'

/** A screenshot of what the member sees, kept out of the repository. */
async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true })
  await page.evaluate(() => document.fonts.ready)
  await page.waitForTimeout(250)
  await page.screenshot({ path: join(SHOTS, `${name}.png`) })
}

const toasts = (page: Page) => page.getByRole('region', { name: /^Notifications \(F8\)/ })
const messageList = (page: Page) => page.getByRole('list', { name: 'Messages' })
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' })

/** Writes `text` in the open conversation's composer and sends it with Enter. */
async function send(page: Page, text: string) {
  await composer(page).fill(text)
  await composer(page).press('Enter')
  await messageList(page).getByText(text, { exact: true }).waitFor()
  expect(await composer(page).inputValue()).toBe('')
}

describe.skipIf(!hasMurmur)('messages in a browser', () => {
  let net: AdaAndBob
  let cyd: Member
  let adaAndBob = ''

  beforeAll(async () => {
    net = await startAdaAndBob()
    cyd = await signUp(net.browser, net.server, 'cyd@example.com', await net.server.createInvite())
  })

  afterAll(async () => {
    await cyd?.context.close()
    await net?.close()
  })

  it('Ada messages Bob from his profile', async () => {
    const { page } = net.ada
    await page.goto(`/profile/${net.bob.username}`)
    await page.getByRole('button', { name: 'Message', exact: true }).click()
    await page.waitForURL(/\/messages\/\d+$/)
    adaAndBob = new URL(page.url()).pathname
    await page.getByText('No messages yet. Say hello.').waitFor()
    await send(page, 'Hello Bob, are you coming on Saturday?')
    // No Message button on her own profile.
    await page.goto(`/profile/${net.ada.username}`)
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor()
    expect(await page.getByRole('button', { name: 'Message', exact: true }).count()).toBe(0)
  })

  it('Bob sees the unread badge, opens the conversation and replies with Enter', async () => {
    const { page } = net.bob
    await page.goto('/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'Messages 1 unread' }).waitFor()
    await page.waitForFunction(() => document.title.startsWith('(1) '))
    await nav.getByRole('link', { name: /^Messages/ }).click()
    await page.getByRole('heading', { name: 'Messages', exact: true }).waitFor()
    await page.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /Hello Bob/ }).click()
    await messageList(page).getByText('Hello Bob, are you coming on Saturday?').waitFor()
    // Read now: the badge goes.
    await nav.getByRole('link', { name: 'Messages', exact: true }).waitFor()

    await send(page, 'Yes! I will bring bread.')
    // Shift+Enter starts a new line; Enter then sends both.
    await composer(page).fill('Two things:')
    await composer(page).press('Shift+Enter')
    await composer(page).pressSequentially('the starter and the flour')
    expect(await composer(page).inputValue()).toBe('Two things:\nthe starter and the flour')
    await composer(page).press('Enter')
    // The line break stays in the message.
    await messageList(page).getByText(/^Two things:\nthe starter and the flour$/).waitFor()
    expect(await composer(page).inputValue()).toBe('')
    const last = messageList(page).getByRole('listitem').last()
    expect(await last.innerText()).toContain('Two things:\nthe starter and the flour')
  })

  it('Cyd is refused until Bob allows everyone, then her request waits under Requests until he accepts', async () => {
    const { page } = cyd
    expectFailures(cyd.context, { path: /^\/api\/conversations$/, method: 'POST', status: 403 })
    await page.goto(`/profile/${net.bob.username}`)
    await page.getByRole('button', { name: 'Message', exact: true }).click()
    await toasts(page).getByText(`@${net.bob.username}`, { exact: false }).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/profile/${net.bob.username}`)

    // Bob: Settings, "Allow new messages from: Everyone".
    const bob = net.bob.page
    await bob.goto('/settings')
    const choices = bob.getByRole('group', { name: 'Allow new messages from' })
    expect(await choices.getByRole('radio', { name: 'People I follow' }).isChecked()).toBe(true)
    const saved = bob.waitForResponse((r) => r.url().endsWith('/api/users/preferences') && r.ok())
    await choices.getByRole('radio', { name: 'Everyone' }).check()
    await saved
    await bob.reload()
    expect(await bob.getByRole('group', { name: 'Allow new messages from' }).getByRole('radio', { name: 'Everyone' }).isChecked()).toBe(true)

    await page.getByRole('button', { name: 'Message', exact: true }).click()
    await page.waitForURL(/\/messages\/\d+$/)
    await send(page, 'Hi Bob, it is Cyd from the bakery class.')
    await page.getByText('Sent as a request.').waitFor()

    // Bob finds it under Requests, not in his inbox, and accepts it.
    await bob.goto('/messages')
    await bob.getByRole('list', { name: 'Conversations' }).waitFor()
    expect(await bob.getByRole('list', { name: 'Conversations' }).getByText('it is Cyd', { exact: false }).count()).toBe(0)
    await bob.getByRole('tab', { name: 'Requests' }).click()
    await bob.getByRole('list', { name: 'Requests' }).getByRole('link', { name: /it is Cyd/ }).click()
    const banner = bob.getByRole('region', { name: 'Message request' })
    await banner.waitFor()
    await expectAccessible(bob, 'A request')
    await shot(bob, 'desktop-light-request')
    await banner.getByRole('button', { name: 'Accept' }).click()
    await banner.waitFor({ state: 'detached' })
    await bob.getByRole('tab', { name: 'Inbox', selected: true }).waitFor()
    await bob.getByRole('list', { name: 'Conversations' }).getByRole('link', { name: /it is Cyd/ }).waitFor()

    // Accepted: Cyd no longer sees "Sent as a request".
    await page.reload()
    await messageList(page).getByText('Hi Bob, it is Cyd').waitFor()
    expect(await page.getByText('Sent as a request.').count()).toBe(0)
  })

  it('with the conversation open, Bob sees Ada\'s new message and her deletion as they happen', async () => {
    const bob = net.bob.page
    await bob.goto(adaAndBob)
    await messageList(bob).getByText('Hello Bob, are you coming on Saturday?').waitFor()
    const { page } = net.ada
    await page.goto(adaAndBob)
    await send(page, 'Lovely, see you then.')
    // No reload: the live stream brings it.
    await messageList(bob).getByText('Lovely, see you then.').waitFor()
    const mine = messageList(page).getByRole('listitem').filter({ hasText: 'Hello Bob, are you coming on Saturday?' })
    await mine.hover()
    await mine.getByRole('button', { name: 'Delete message' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete this message?' })
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await dialog.waitFor({ state: 'detached' })
    await messageList(page).getByText('Message deleted').waitFor()
    expect(await messageList(page).getByText('Hello Bob, are you coming on Saturday?').count()).toBe(0)

    await messageList(bob).getByText('Message deleted').waitFor()
    expect(await messageList(bob).getByText('Hello Bob, are you coming on Saturday?').count()).toBe(0)
    await shot(bob, 'desktop-light-deleted')
  })

  it('Bob reports one of Ada\'s messages, and a moderator reads only the messages he chose', async () => {
    const bob = net.bob.page
    await bob.goto(adaAndBob)
    await messageList(bob).getByText('Lovely, see you then.').waitFor()
    await bob.getByRole('button', { name: 'Conversation options' }).click()
    await bob.getByRole('menuitem', { name: 'Report' }).click()
    const dialog = bob.getByRole('dialog', { name: 'Report messages' })
    await dialog.getByText('Moderators will see only the messages you choose.').waitFor()
    const choices = dialog.getByRole('group', { name: 'Messages to report' })
    // Ada's deleted message is not offered; Bob's own are, for context, none chosen.
    expect(await choices.getByRole('checkbox').count()).toBe(3)
    expect(await choices.getByRole('checkbox', { checked: true }).count()).toBe(0)
    await choices.getByRole('checkbox', { name: /Lovely, see you then\./ }).check()
    await choices.getByRole('checkbox', { name: /Yes! I will bring bread\./ }).check()
    await dialog.getByRole('radio', { name: 'Other' }).check()
    await dialog.getByLabel('Comment (optional)').fill('Testing the report of messages')
    await expectAccessible(bob, 'The report of messages')
    await shot(bob, 'desktop-light-report-messages')
    await dialog.getByRole('button', { name: 'Send report' }).click()
    await toasts(bob).getByText('Report sent', { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })

    await net.server.setRole(cyd.username, 'moderator')
    const moderator = cyd.page
    await moderator.goto('/moderation')
    const group = moderator.getByRole('article', { name: `Member @${net.ada.username}` })
    await group.waitFor()
    const quoted = group.getByRole('figure', { name: 'Reported messages' })
    expect(await quoted.getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`^@${net.bob.username} · .*\\n+Yes! I will bring bread\\.$`)),
      expect.stringMatching(new RegExp(`^@${net.ada.username} · .*\\n+Lovely, see you then\\.$`)),
    ])
    // Nothing else of the conversation.
    expect(await group.getByText('Two things:', { exact: false }).count()).toBe(0)
    await expectAccessible(moderator, 'A report of messages')
    await shot(moderator, 'desktop-light-reported-messages')
  })

  it('loads older messages above, keeping the reader’s place', async () => {
    const id = Number(adaAndBob.split('/').at(-1))
    for (let n = 1; n <= 24; n++) {
      await call(net.ada.context.request, 'POST', `/api/conversations/${id}/messages`, { content: `Counting sheep, number ${n}` })
    }
    const { page } = net.bob
    await page.goto(adaAndBob)
    await messageList(page).getByText('Counting sheep, number 24', { exact: true }).waitFor()
    // The newest page holds 20: the first messages wait above.
    expect(await messageList(page).getByText('Yes! I will bring bread.').count()).toBe(0)
    const pane = page.getByRole('region', { name: 'Message history' })
    // It opens at the newest, at the bottom.
    expect(await pane.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2)
    // Scrolled to the top, older messages load above what the reader sees, which stays put.
    const anchor = messageList(page).getByText('Counting sheep, number 5', { exact: true })
    const before = await anchor.evaluate((el) => {
      const scroller = el.closest('[role="region"]')
      if (scroller) scroller.scrollTop = 0
      return el.getBoundingClientRect().top
    })
    await messageList(page).getByText('Yes! I will bring bread.').waitFor()
    const after = await anchor.evaluate((el) => el.getBoundingClientRect().top)
    expect(Math.abs(after - before)).toBeLessThan(2)
    expect(await pane.evaluate((el) => el.scrollTop)).toBeGreaterThan(0)
  })

  it('reads well at 360 and 1280 px, light and dark', async () => {
    for (const [viewport, size] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        const { context, page } =
          scheme === 'dark'
            ? await darkPage(net.browser, net.server, net.bob, viewport)
            : await (async () => {
                const light = await newContext(net.browser, net.server.url, viewport)
                await light.addCookies(await net.bob.context.cookies())
                return { context: light, page: await light.newPage() }
              })()
        await page.goto(adaAndBob)
        await messageList(page).getByText('Counting sheep, number 24', { exact: true }).waitFor()
        await noHorizontalScroll(page)
        await expectAccessible(page, `A conversation, ${size}, ${scheme}`)
        await shot(page, `${size}-${scheme}-conversation`)
        await page.goto('/messages')
        await page.getByRole('list', { name: 'Conversations' }).waitFor()
        await noHorizontalScroll(page)
        await expectAccessible(page, `Messages, ${size}, ${scheme}`)
        await shot(page, `${size}-${scheme}-messages`)
        await context.close()
      }
    }
  })
})

// Block, mute, report, the moderation queue, a suspension and the public log in a real browser
// against the real `murmur serve` (fresh SQLite data dir), one member to a browser context.
// Skips, saying why, when the server binary is missing.
//
// The people: Mia signs up first (the instance's admin); Alice and Bob are members, Bob invited
// by Alice; Sam, invited by Bob, sells followers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import {
  PHONE,
  SCREENSHOT_DIR,
  launchBrowser,
  newContext,
  screenshot,
} from './support/browser'
import { expectFailures } from './support/guard'
import { call, expectAccessible, noHorizontalScroll, signUp as signUpMember, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur, startMurmur, type MurmurServer } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the safety journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const toasts = (page: Page) => page.getByRole('region', { name: /^Notifications \(F8\)/ })

async function expectToast(page: Page, text: string) {
  await toasts(page).getByText(text, { exact: true }).first().waitFor()
}

/** Fills the required reason of a moderation action's dialog and confirms it. */
async function actWithReason(dialog: Locator, reason: string, confirm: string) {
  await dialog.getByRole('textbox', { name: 'Reason (required)' }).fill(reason)
  await dialog.getByRole('button', { name: confirm, exact: true }).click()
  await dialog.waitFor({ state: 'detached' })
}

describe.skipIf(!hasMurmur)('safety in a browser', () => {
  let server: MurmurServer
  let browser: Browser
  let mia: Member
  let alice: Member
  let bob: Member
  let sam: Member
  let samsPostId = 0

  /** A member whose browser confirms its dialogs (Delete, Block). */
  async function signUp(email: string, inviteCode: string) {
    const member = await signUpMember(browser, server, email, inviteCode)
    member.page.on('dialog', (dialog) => void dialog.accept())
    return member
  }

  async function inviteFrom(member: Member): Promise<string> {
    const invite = await call(member.context.request, 'POST', '/api/invites')
    return invite.code as string
  }

  /** The "…" menu of the first post card holding `text`, opened. */
  async function openPostMenu(page: Page, text: string) {
    const card = page.getByRole('article').filter({ hasText: text }).first()
    await card.getByRole('button', { name: 'More actions', exact: true }).click()
    const menu = page.getByRole('menu')
    await menu.waitFor()
    return menu
  }

  async function openSettings(page: Page) {
    await page.getByRole('button', { name: /User menu/ }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor()
  }

  beforeAll(async () => {
    server = await startMurmur()
    browser = await launchBrowser()
    console.log(`Murmur at ${server.url}; screenshots in ${SCREENSHOT_DIR}`)
  })

  afterAll(async () => {
    for (const member of [mia, alice, bob, sam]) await member?.context.close()
    await browser?.close()
    await server?.stop()
  })

  it('the first member is the instance admin, with Moderation in the navigation', async () => {
    mia = await signUp('mia@example.com', server.firstStartInvite() ?? (await server.createInvite()))
    const nav = mia.page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'Moderation' }).click()
    await mia.page.getByRole('heading', { name: 'Moderation', exact: true }).waitFor()
    await mia.page.getByText('No open reports').waitFor()
  })

  it('members join through invites, and each profile says who invited them', async () => {
    alice = await signUp('alice@example.com', await server.createInvite())
    bob = await signUp('bob@example.com', await inviteFrom(alice))
    sam = await signUp('sam@example.com', await inviteFrom(bob))
    expect([alice.username, bob.username, sam.username]).toEqual(['alice', 'bob', 'sam'])

    await alice.page.goto('/profile/sam')
    await alice.page.getByText('Invited by @bob').waitFor()
    await alice.page.goto('/profile/bob')
    await alice.page.getByText('Invited by @alice').waitFor()
    await alice.page.goto('/profile/alice')
    await alice.page.getByText('Invited by the instance').waitFor()
    await expectAccessible(alice.page, 'own profile')
  })

  it("a member mutes another from a post's menu: their posts leave Friends until unmuted in Settings", async () => {
    const { page } = alice
    await call(alice.context.request, 'POST', '/api/follows', { followingId: bob.id })
    await call(bob.context.request, 'POST', '/api/posts', { content: 'Morning, everyone. Tea is on.' })
    await page.goto('/')
    const menu = await openPostMenu(page, 'Tea is on.')
    const mute = menu.getByRole('group', { name: 'Mute @bob' })
    // the menu asks where Alice stands with Bob before it offers Mute or Unmute
    await mute.getByRole('menuitem', { name: 'For 1 hour' }).waitFor()
    expect(await mute.getByRole('menuitem').allTextContents()).toEqual(['For 1 hour', 'For 1 day', 'For 1 week', 'Until I unmute'])
    await screenshot(page, 'safety-desktop-post-menu')
    await mute.getByRole('menuitem', { name: 'For 1 hour' }).click()
    await expectToast(page, 'Muted @bob')

    await page.reload()
    await page.getByText('No posts from people you follow yet', { exact: false }).waitFor()
    expect(await page.getByText('Tea is on.').count()).toBe(0)

    await openSettings(page)
    const muted = page.getByRole('region', { name: 'Muted members' })
    await muted.getByText(/^Muted until /).waitFor()
    await screenshot(page, 'safety-desktop-settings-muted')
    await expectAccessible(page, 'settings')
    await muted.getByRole('button', { name: 'Unmute @bob' }).click()
    await expectToast(page, 'Unmuted @bob')
    await muted.getByText("You haven't muted anyone.").waitFor()

    await page.goto('/')
    await page.getByText('Tea is on.').first().waitFor()
  })

  it('a member blocks another after a confirm that says what it does; neither sees the other, and follows end', async () => {
    const { page } = alice
    await page.goto('/profile/bob')
    await page.getByRole('button', { name: /^Following / }).waitFor()
    await page.getByRole('button', { name: 'More actions for @bob' }).click()
    await page.getByRole('menu').getByRole('menuitem', { name: 'Block @bob' }).click()
    const dialog = page.getByRole('dialog', { name: 'Block @bob?' })
    await dialog.getByText("They can't follow you or interact with you, and you won't see each other's posts. Any follows between you end.", { exact: false }).waitFor()
    await screenshot(page, 'safety-desktop-block-confirm')
    await expectAccessible(page, 'block confirm')
    await dialog.getByRole('button', { name: 'Block @bob' }).click()
    await expectToast(page, 'Blocked @bob')
    await dialog.waitFor({ state: 'detached' })
    await page.getByText('You blocked @bob').waitFor()
    expect(await page.getByRole('tab').count()).toBe(0)
    expect(await page.getByRole('button', { name: /^Follow/ }).count()).toBe(0)
    await screenshot(page, 'safety-desktop-profile-blocked')

    await bob.page.goto('/profile/alice')
    await bob.page.getByText("You can't view this profile").waitFor()
    expect(await bob.page.getByRole('tab').count()).toBe(0)
    await screenshot(bob.page, 'safety-desktop-profile-blocked-by')

    await openSettings(page)
    const blocked = page.getByRole('region', { name: 'Blocked members' })
    await blocked.getByRole('button', { name: 'Unblock @bob' }).click()
    await expectToast(page, 'Unblocked @bob')
    await blocked.getByText("You haven't blocked anyone.").waitFor()
    // The block ended Alice's follow; unblocking does not bring it back.
    await page.goto('/profile/bob')
    await page.getByRole('button', { name: /^Follow / }).waitFor()
  })

  it('members report a post and a member; a reason is required, and reporting a member can block them too', async () => {
    const post = await call(sam.context.request, 'POST', '/api/posts', { content: 'Get 10k followers today, cheap! DM me.' })
    samsPostId = post.id as number

    const { page } = alice
    await page.goto('/profile/sam')
    let menu = await openPostMenu(page, 'Get 10k followers today')
    await menu.getByRole('menuitem', { name: 'Report post' }).click()
    const report = page.getByRole('dialog', { name: 'Report post' })
    await report.getByRole('button', { name: 'Send report' }).click()
    await report.getByText('Choose a reason').waitFor()
    await report.getByRole('radio', { name: 'Spam' }).check()
    await report.getByLabel('Comment (optional)').fill('Posted under every thread I read')
    await report.getByText('32/1000').waitFor()
    await screenshot(page, 'safety-desktop-report-post')
    await expectAccessible(page, 'report dialog')
    await report.getByRole('button', { name: 'Send report' }).click()
    await expectToast(page, 'Report sent')
    await report.waitFor({ state: 'detached' })
    // still on the profile: the dialog's clicks are not the card's
    expect(new URL(page.url()).pathname).toBe('/profile/sam')

    await bob.page.goto('/profile/sam')
    menu = await openPostMenu(bob.page, 'Get 10k followers today')
    await menu.getByRole('menuitem', { name: 'Report post' }).click()
    const bobsPostReport = bob.page.getByRole('dialog', { name: 'Report post' })
    await bobsPostReport.getByRole('radio', { name: 'Spam' }).check()
    await bobsPostReport.getByRole('button', { name: 'Send report' }).click()
    await expectToast(bob.page, 'Report sent')

    await bob.page.getByRole('button', { name: 'More actions for @sam' }).click()
    await bob.page.getByRole('menu').getByRole('menuitem', { name: 'Report @sam' }).click()
    const memberReport = bob.page.getByRole('dialog', { name: 'Report @sam' })
    await memberReport.getByRole('radio', { name: 'Impersonation' }).check()
    await memberReport.getByLabel('Comment (optional)').fill('Says he runs Murmur')
    await memberReport.getByRole('checkbox', { name: 'Also block @sam' }).check()
    await memberReport.getByRole('button', { name: 'Send report' }).click()
    await expectToast(bob.page, 'Report sent')
    await toasts(bob.page).getByText('You blocked @sam.').waitFor()
    await bob.page.getByRole('main').getByText('You blocked @sam', { exact: true }).waitFor()
  })

  it('a moderator sees the reports grouped by target, never who sent them, and removes the post with a reason', async () => {
    const { page } = mia
    await page.goto('/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Moderation' }).click()
    const postGroup = page.getByRole('article', { name: 'Post by @sam' })
    await postGroup.getByText('Reported by 2 members').waitFor()
    await postGroup.getByText('Get 10k followers today, cheap! DM me.').waitFor()
    await postGroup.getByText('Posted under every thread I read').waitFor()
    const memberGroup = page.getByRole('article', { name: 'Member @sam' })
    await memberGroup.getByText('Reported by 1 member', { exact: true }).waitFor()
    await memberGroup.getByText('Impersonation').waitFor()
    await memberGroup.getByText('Says he runs Murmur').waitFor()
    const queueText = (await page.getByRole('main').textContent()) ?? ''
    expect(queueText).not.toContain('@alice')
    expect(queueText).not.toContain('@bob')
    await screenshot(page, 'safety-desktop-moderation-queue')
    await expectAccessible(page, 'moderation queue')

    await postGroup.getByRole('button', { name: 'Remove post' }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove the post' })
    await dialog.getByRole('button', { name: 'Remove post' }).click()
    await dialog.getByText('Give a reason: it is shown in the moderation log').waitFor()
    await screenshot(page, 'safety-desktop-remove-reason-required')
    await actWithReason(dialog, 'Selling followers', 'Remove post')
    await expectToast(page, 'Post removed')
    await postGroup.waitFor({ state: 'detached' })

    // The author is told why, and sees the post marked on its own page.
    await sam.page.goto('/notifications')
    await sam.page.getByRole('button', { name: /^Moderators removed your post: Selling followers/ }).click()
    await sam.page.getByRole('heading', { name: 'Thread' }).waitFor()
    expect(new URL(sam.page.url()).pathname).toBe(`/post/${samsPostId}`)
    await sam.page.getByText('Removed by moderators').waitFor()
    await screenshot(sam.page, 'safety-desktop-removed-post')
    // Nobody else finds it on the author's profile.
    await alice.page.goto('/profile/sam')
    await alice.page.getByText('No posts yet.').waitFor()
  })

  it('a moderator follows a spam account to the member who invited it, and takes their invites there', async () => {
    const { page } = mia
    await page.getByRole('article', { name: 'Member @sam' }).getByRole('link', { name: 'Invite tree of @sam' }).click()
    await page.getByRole('heading', { name: 'Invite tree' }).waitFor()
    await page.getByRole('region', { name: 'Invited by' }).getByRole('link', { name: /@bob, invite tree$/ }).click()
    const member = page.getByRole('region', { name: '@bob' })
    await member.waitFor()
    const invited = page.getByRole('region', { name: 'Invited 1 member' })
    await invited.getByText('@sam').waitFor()
    await invited.getByText('Active').waitFor()
    await screenshot(page, 'safety-desktop-invite-tree')
    await expectAccessible(page, 'invite tree')

    await member.getByRole('button', { name: 'Take invites' }).click()
    await actWithReason(page.getByRole('dialog', { name: 'Take invites from @bob' }), 'Brought in a seller', 'Take invites')
    await expectToast(page, 'Invites taken from @bob')
    await member.getByText('Invites taken').waitFor()
    await member.getByRole('button', { name: 'Give invites back' }).waitFor()

    const refused = await bob.context.request.post('/api/invites', { headers: { 'X-Requested-With': 'murmur' } })
    expect(refused.status()).toBe(403)
    expect(await refused.text()).toContain('Your invites were taken away by moderators')
  })

  it("a suspended member's open session ends at once; their profile reads as suspended, and a moderator lifts it", async () => {
    await sam.page.goto('/')
    await sam.page.getByRole('heading', { name: 'Home', exact: true }).waitFor()

    // The report about Sam is dismissed first: a suspension resolves the open reports about the
    // member it suspends, so the queue would be empty after it.
    const { page } = mia
    await page.goto('/moderation')
    const memberGroup = page.getByRole('article', { name: 'Member @sam' })
    await memberGroup.getByRole('button', { name: 'Dismiss' }).click()
    await actWithReason(page.getByRole('dialog', { name: 'Dismiss the reports' }), 'Reported in error', 'Dismiss reports')
    await expectToast(page, 'Reports dismissed')
    await page.getByText('No open reports').waitFor()

    await page.goto(`/moderation/members/${sam.id}`)
    const samInTree = page.getByRole('region', { name: '@sam' })
    await samInTree.getByRole('button', { name: 'Suspend' }).click()
    const dialog = page.getByRole('dialog', { name: 'Suspend @sam' })
    await dialog.getByRole('radio', { name: '7 days' }).check()
    await screenshot(page, 'safety-desktop-suspend')
    expectFailures(
      sam.context,
      { path: /^\/api\/auth\/me$/, status: 401 },
      { path: /^\/api\/auth\/request-login-link$/, status: 403 },
      { path: /^\/api\/auth\/verify\?/, status: 403 },
    )
    await actWithReason(dialog, 'Impersonating the operators', 'Suspend @sam')
    await expectToast(page, '@sam suspended for 7 days')

    // Sam's page is still open: its live stream ends his session there at once, as a 401 would,
    // and he is offered the login dialog without a step of his own.
    const login = sam.page.getByRole('dialog', { name: 'Welcome back' })
    await login.waitFor()

    // Logging in again is refused, whether at the request for a link or at the link itself.
    await login.getByLabel('Email', { exact: true }).fill('sam@example.com')
    const sentAt = Date.now()
    await login.getByRole('button', { name: 'Send magic link' }).click()
    // The toast region is hidden from the accessibility tree while the dialog is open.
    const refused = sam.page.getByText('This account is suspended')
    const sent = login.getByRole('heading', { name: 'Check your email' })
    await refused.or(sent).first().waitFor()
    if (await sent.isVisible()) {
      await sam.page.goto(await server.magicLinkFor('sam@example.com', sentAt))
      await sam.page.getByRole('heading', { name: 'Verification failed' }).waitFor()
      await sam.page.getByText('This account is suspended').waitFor()
    }
    await screenshot(sam.page, 'safety-desktop-suspended-login')

    expectFailures(alice.context, { path: /^\/api\/users\/sam$/, status: 404 })
    await alice.page.goto('/profile/sam')
    await alice.page.getByText('This account is suspended').waitFor()
    await screenshot(alice.page, 'safety-desktop-profile-suspended')

    // Moderators still see the profile, marked.
    await page.goto('/profile/sam')
    await page.getByText(/^Suspended until /).waitFor()

    await page.goto(`/moderation/members/${sam.id}`)
    await samInTree.getByText('Suspended').waitFor()
    await samInTree.getByRole('button', { name: 'Lift suspension' }).click()
    await actWithReason(page.getByRole('dialog', { name: 'Lift the suspension of @sam' }), 'Appeal accepted', 'Lift suspension')
    await expectToast(page, 'Suspension of @sam lifted')
    await samInTree.getByText('Active').waitFor()

    await alice.page.goto('/profile/sam')
    await alice.page.getByRole('tab', { name: 'Posts' }).waitFor()
  })

  it('every member reads the moderation log, which names the role of who acted and never reporters', async () => {
    const { page } = bob
    await page.goto('/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'Profile' }).waitFor()
    expect(await nav.getByRole('link', { name: 'Moderation' }).count()).toBe(0)
    await page.getByRole('button', { name: /User menu/ }).click()
    await page.getByRole('menuitem', { name: 'Moderation log' }).click()
    await page.getByRole('heading', { name: 'Moderation log' }).waitFor()
    const log = page.getByRole('list', { name: 'Moderation log' })
    for (const text of [
      'Lifted a suspension',
      'Reason: Appeal accepted',
      'Dismissed reports',
      'Reason: Reported in error',
      'Suspended until',
      'Took invites away',
      'Reason: Brought in a seller',
      'Removed a post',
      'Reason: Selling followers',
    ]) {
      await log.getByText(text, { exact: false }).first().waitFor()
    }
    expect(await log.getByRole('listitem').count()).toBe(5)
    // Mia, the first member, is the admin.
    expect(await log.getByText('By an admin', { exact: false }).count()).toBe(5)
    expect((await log.textContent()) ?? '').not.toContain('@mia')
    expect((await log.textContent()) ?? '').not.toContain('@alice')
    await screenshot(page, 'safety-desktop-moderation-log')
    await expectAccessible(page, 'moderation log')

    // The queue itself is for moderators: anyone else gets the page that does not exist.
    await page.goto('/moderation')
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
  })

  it('an operator makes a member a moderator from the command line; moderators cannot act on an admin', async () => {
    await server.setRole('bob', 'moderator')
    const { page } = bob
    await page.goto('/')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Moderation' }).click()
    await page.getByText('No open reports').waitFor()

    const refused = await bob.context.request.post(`/api/moderation/members/${mia.id}/suspend`, {
      data: { reason: 'Testing the rule' },
      headers: { 'X-Requested-With': 'murmur' },
    })
    expect(refused.status()).toBe(403)
    expect(await refused.text()).toContain("Moderators can't act on an admin")
  })

  it('the menus, dialogs and moderation screens fit a 360 px phone in the dark theme', async () => {
    const phone = await newContext(browser, server.url, PHONE, { colorScheme: 'dark' })
    await phone.addCookies(await alice.context.cookies())
    const page = await phone.newPage()
    await page.goto('/profile/bob')
    await page.getByRole('button', { name: 'More actions for @bob' }).click()
    const menu = page.getByRole('menu')
    await menu.getByRole('menuitem', { name: 'Report @bob' }).waitFor()
    const box = await menu.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true)
    await noHorizontalScroll(page)
    await screenshot(page, 'safety-phone-dark-profile-menu')
    await menu.getByRole('menuitem', { name: 'Report @bob' }).click()
    const report = page.getByRole('dialog', { name: 'Report @bob' })
    await report.getByRole('checkbox', { name: 'Also block @bob' }).waitFor()
    await noHorizontalScroll(page)
    await screenshot(page, 'safety-phone-dark-report-member')
    await expectAccessible(page, 'report a member (phone, dark)')
    await report.getByRole('button', { name: 'Cancel' }).click()
    await report.waitFor({ state: 'detached' })

    await page.goto('/settings')
    await page.getByRole('region', { name: 'Blocked members' }).waitFor()
    await noHorizontalScroll(page)
    await screenshot(page, 'safety-phone-dark-settings')
    await page.goto('/moderation/log')
    await page.getByRole('list', { name: 'Moderation log' }).waitFor()
    await noHorizontalScroll(page)
    await screenshot(page, 'safety-phone-dark-moderation-log')
    await expectAccessible(page, 'moderation log (phone, dark)')
    await phone.close()

    const moderatorPhone = await newContext(browser, server.url, PHONE, { colorScheme: 'dark' })
    await moderatorPhone.addCookies(await mia.context.cookies())
    const moderatorPage = await moderatorPhone.newPage()
    await moderatorPage.goto(`/moderation/members/${bob.id}`)
    await moderatorPage.getByRole('region', { name: 'Invited 1 member' }).waitFor()
    await noHorizontalScroll(moderatorPage)
    await screenshot(moderatorPage, 'safety-phone-dark-invite-tree')
    await expectAccessible(moderatorPage, 'invite tree (phone, dark)')
    await moderatorPhone.close()
  })
})

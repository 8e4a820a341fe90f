// A member's own controls on posts in a real browser against the real `murmur serve`: editing a
// post (the "Edited" mark and its history) and bookmarks (the toggle and the Bookmarks page).
// Skips, saying why, when the server binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { PHONE, screenshot } from './support/browser'
import { type AdaAndBob, call, darkPage, expectAccessible, noHorizontalScroll, startAdaAndBob, type Member } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the member controls journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const card = (page: Page, text: string) => page.getByRole('article').filter({ hasText: text }).first()

describe.skipIf(!hasMurmur)('editing and bookmarking posts in a browser', () => {
  let journey: AdaAndBob

  beforeAll(async () => {
    journey = await startAdaAndBob()
  })

  afterAll(async () => {
    await journey?.close()
  })

  it('the author edits a post; the card says Edited, and its history shows the earlier text', async () => {
    const { page } = journey.ada
    await call(journey.ada.context.request, 'POST', '/api/posts', { content: 'Teh garden is full of tomatoes' })
    await page.goto('/')
    const post = card(page, 'Teh garden')
    await post.getByRole('button', { name: 'Edit post' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit post' })
    await dialog.getByRole('textbox', { name: 'Text' }).fill('The garden is full of tomatoes')
    await screenshot(page, 'member-controls-desktop-edit-dialog')
    await expectAccessible(page, 'edit dialog')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'detached' })

    const edited = card(page, 'The garden is full')
    await edited.getByRole('button', { name: /^Edited/ }).click()
    const history = page.getByRole('dialog', { name: 'Edit history' })
    await history.getByText('Teh garden is full of tomatoes').waitFor()
    await history.getByText('The garden is full of tomatoes').waitFor()
    await screenshot(page, 'member-controls-desktop-history')
    await expectAccessible(page, 'history dialog')
    await page.keyboard.press('Escape')
    await history.waitFor({ state: 'detached' })
    expect(new URL(page.url()).pathname).toBe('/')

    // Another member reads the new text, with the mark, and no Edit action.
    await journey.bob.page.goto('/')
    const seen = card(journey.bob.page, 'The garden is full')
    await seen.getByRole('button', { name: /^Edited/ }).waitFor()
    expect(await seen.getByRole('button', { name: 'Edit post' }).count()).toBe(0)
  })

  it('a member bookmarks a post from its card and finds it on the Bookmarks page, linked in the navigation', async () => {
    const { page } = journey.bob
    await call(journey.ada.context.request, 'POST', '/api/posts', { content: 'A recipe worth keeping: basil pesto' })
    await page.goto('/')
    const post = card(page, 'basil pesto')
    const toggle = post.getByRole('button', { name: 'Bookmark' })
    expect(await toggle.getAttribute('aria-pressed')).toBe('false')
    await toggle.click()
    await post.getByRole('button', { name: 'Bookmark', pressed: true }).waitFor()

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bookmarks' }).click()
    await page.getByRole('heading', { name: 'Bookmarks', exact: true }).waitFor()
    await card(page, 'basil pesto').waitFor()
    expect(await page.getByText('The garden is full').count()).toBe(0)
    await screenshot(page, 'member-controls-desktop-bookmarks')
    await expectAccessible(page, 'bookmarks')

    // Nobody else sees it: Ada's Bookmarks page is empty.
    await journey.ada.page.goto('/bookmarks')
    await journey.ada.page.getByText('No bookmarks yet.', { exact: false }).waitFor()

    // Taken away from the page itself, the post is gone on the next visit.
    await card(page, 'basil pesto').getByRole('button', { name: 'Bookmark', pressed: true }).click()
    await card(page, 'basil pesto').getByRole('button', { name: 'Bookmark', pressed: false }).waitFor()
    await page.goto('/')
    await page.goto('/bookmarks')
    await page.getByText('No bookmarks yet.', { exact: false }).waitFor()
  })

  it('the Edited mark, the history and the Bookmarks page fit a 360 px phone in the dark theme', async () => {
    await call(journey.bob.context.request, 'POST', `/api/posts/${(await latestPostOf(journey.ada)).id}/bookmark`)
    const { context, page } = await darkPage(journey.browser, journey.server, journey.bob, PHONE)
    try {
      await page.goto('/bookmarks')
      await page.getByRole('heading', { name: 'Bookmarks', exact: true }).waitFor()
      await card(page, 'basil pesto').waitFor()
      await noHorizontalScroll(page)
      // The bottom bar stays as the spec has it; the menu lists Bookmarks.
      await page.getByRole('navigation', { name: 'Bottom' }).getByRole('link', { name: 'Home' }).waitFor()
      expect(await page.getByRole('navigation', { name: 'Bottom' }).getByRole('link', { name: 'Bookmarks' }).count()).toBe(0)
      await page.getByRole('button', { name: 'Open menu' }).click()
      await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Bookmarks' }).waitFor()
      await page.keyboard.press('Escape')
      await screenshot(page, 'member-controls-phone-dark-bookmarks')
      await expectAccessible(page, 'bookmarks (phone, dark)')

      await page.goto('/')
      await card(page, 'The garden is full').getByRole('button', { name: /^Edited/ }).click()
      await page.getByRole('dialog', { name: 'Edit history' }).getByText('Teh garden is full of tomatoes').waitFor()
      await noHorizontalScroll(page)
      await screenshot(page, 'member-controls-phone-dark-history')
      await expectAccessible(page, 'history (phone, dark)')
    } finally {
      await context.close()
    }
    const adaPhone = await darkPage(journey.browser, journey.server, journey.ada, PHONE)
    try {
      await adaPhone.page.goto('/')
      // On a phone the author's Edit is in More actions.
      await card(adaPhone.page, 'basil pesto').getByRole('button', { name: 'More actions' }).click()
      await adaPhone.page.getByRole('menuitem', { name: 'Edit post' }).click()
      await adaPhone.page.getByRole('dialog', { name: 'Edit post' }).waitFor()
      await noHorizontalScroll(adaPhone.page)
      await screenshot(adaPhone.page, 'member-controls-phone-dark-edit-dialog')
    } finally {
      await adaPhone.context.close()
    }
  })
})

async function latestPostOf(member: Member) {
  const posts = (await call(member.context.request, 'GET', `/api/users/${member.username}/posts?limit=1`)) as unknown as { id: number }[]
  return posts[0]
}

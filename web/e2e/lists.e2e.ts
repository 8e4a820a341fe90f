// Lists in a real browser against the real `murmur serve`: Bob, who follows Ada, opens Lists from
// the navigation, makes a list, picks Ada in "Edit members", reads her posts in the list's feed
// (the same cards as Friends), renames the list and deletes it. Screenshots at 360 and 1280 px,
// light and dark, go to web/test-results/screenshots (lists-…). Skips, saying why, when the server
// binary is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DESKTOP, PHONE, newContext, screenshot } from './support/browser'
import { expectFailures } from './support/guard'
import { call, darkPage, expectAccessible, noHorizontalScroll, startAdaAndBob, type AdaAndBob } from './support/members'
import { MURMUR_BIN, hasMurmur } from './support/murmur-server'

if (!hasMurmur) {
  console.warn(`\nSKIPPED the lists journey: no server binary at ${MURMUR_BIN}.\nBuild it with \`cargo build\` (or set MURMUR_BIN).\n`)
}

const TITLE = 'Lighthouse people'
const ADAS = 'The lamp was lit at dusk, as every evening'

/** A screenshot under test-results/screenshots, named for this area. */
const shot = (page: Page, name: string) => screenshot(page, `lists-${name}`)

describe.skipIf(!hasMurmur)('lists in a browser', () => {
  let net: AdaAndBob
  let listPath = ''

  beforeAll(async () => {
    net = await startAdaAndBob()
    await call(net.ada.context.request, 'POST', '/api/posts', { content: ADAS })
  })

  afterAll(async () => {
    await net?.close()
  })

  it('Bob opens Lists from the navigation and makes a list', async () => {
    const { page } = net.bob
    await page.goto('/')
    await page.getByRole('link', { name: 'Lists' }).first().click()
    await page.getByRole('heading', { name: 'Lists', exact: true }).waitFor()
    await page.getByText('No lists yet.').waitFor()
    await page.getByRole('textbox', { name: 'New list' }).fill(`  ${TITLE}  `)
    await page.getByText(`${TITLE.length}/50`).waitFor()
    await page.getByRole('button', { name: 'Create list' }).click()
    const link = page.getByRole('list', { name: 'Your lists' }).getByRole('link', { name: new RegExp(TITLE) })
    await link.waitFor()
    expect(await page.getByRole('textbox', { name: 'New list' }).inputValue()).toBe('')
    // Too long a title is said at once, and the button waits.
    await page.getByRole('textbox', { name: 'New list' }).fill('w'.repeat(51))
    await page.getByText("A list's title can be at most 50 characters").waitFor()
    expect(await page.getByRole('button', { name: 'Create list' }).isDisabled()).toBe(true)
    await page.getByRole('textbox', { name: 'New list' }).fill('')
    await expectAccessible(page, 'Lists')
    await shot(page, 'desktop-light-lists')
    await link.click()
    await page.getByRole('heading', { name: TITLE }).waitFor()
    await page.getByText('This list is empty.').waitFor()
    listPath = new URL(page.url()).pathname
    expect(listPath).toMatch(/^\/lists\/\d+$/)
  })

  it('Bob picks Ada from the people he follows and reads her posts in the list', async () => {
    const { page } = net.bob
    await page.getByRole('button', { name: 'Edit members' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit members' })
    const ada = dialog.getByRole('checkbox', { name: new RegExp(`@${net.ada.username}`) })
    await ada.waitFor()
    expect(await ada.isChecked()).toBe(false)
    await ada.check()
    await expectAccessible(page, 'Edit members')
    await shot(page, 'desktop-light-edit-members')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('article').filter({ hasText: ADAS }).waitFor()
    const lists = (await call(net.bob.context.request, 'GET', '/api/lists')) as unknown as { memberCount: number }[]
    expect(lists[0]?.memberCount).toBe(1)
    await expectAccessible(page, 'A list')
    await shot(page, 'desktop-light-list')
    // Opened again, the dialog shows Ada checked.
    await page.getByRole('button', { name: 'Edit members' }).click()
    expect(await dialog.getByRole('checkbox', { name: new RegExp(`@${net.ada.username}`) }).isChecked()).toBe(true)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
  })

  it('reads well at 360 px and in the dark theme', async () => {
    for (const [viewport, name] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const { context, page } = await darkPage(net.browser, net.server, net.bob, viewport)
      await page.goto('/lists')
      await page.getByRole('link', { name: new RegExp(TITLE) }).waitFor()
      await noHorizontalScroll(page)
      await expectAccessible(page, `Lists, ${name}, dark`)
      await shot(page, `${name}-dark-lists`)
      await page.goto(listPath)
      await page.getByRole('article').filter({ hasText: ADAS }).waitFor()
      await noHorizontalScroll(page)
      await expectAccessible(page, `A list, ${name}, dark`)
      await shot(page, `${name}-dark-list`)
      await context.close()
    }
    const phone = await newContext(net.browser, net.server.url, PHONE)
    await phone.addCookies(await net.bob.context.cookies())
    const page = await phone.newPage()
    await page.goto('/lists')
    await page.getByRole('link', { name: new RegExp(TITLE) }).waitFor()
    await noHorizontalScroll(page)
    await shot(page, 'phone-light-lists')
    await page.goto(listPath)
    await page.getByRole('article').filter({ hasText: ADAS }).waitFor()
    await noHorizontalScroll(page)
    await shot(page, 'phone-light-list')
    await page.getByRole('button', { name: 'Edit members' }).click()
    await page.getByRole('dialog', { name: 'Edit members' }).getByRole('checkbox').first().waitFor()
    await shot(page, 'phone-light-edit-members')
    await phone.close()
  })

  it('Ada cannot open Bob’s list', async () => {
    const { page } = net.ada
    // The list and its feed answer Ada 404, as for no list at all.
    expectFailures(net.ada.context, { path: /^\/api\/lists\/\d+(\/posts.*)?$/, status: 404 })
    await page.goto(listPath)
    await page.getByText('This list does not exist, or it is not yours.').waitFor()
  })

  it('Bob renames the list and deletes it', async () => {
    const { page } = net.bob
    await page.goto('/lists')
    await page.getByRole('button', { name: `Rename ${TITLE}` }).click()
    const rename = page.getByRole('dialog', { name: 'Rename list' })
    await rename.getByRole('textbox', { name: 'Title' }).fill('Keepers')
    await rename.getByRole('button', { name: 'Save' }).click()
    await rename.waitFor({ state: 'hidden' })
    await page.getByRole('link', { name: /Keepers/ }).waitFor()
    await page.getByRole('button', { name: 'Delete Keepers' }).click()
    await page.getByRole('dialog', { name: 'Delete “Keepers”?' }).getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No lists yet.').waitFor()
    expect(await call(net.bob.context.request, 'GET', '/api/lists')).toEqual([])
  })
})

import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, jsonBody, mockFetch, renderWithProviders, requestsOf } from '@/test/test-utils'
import type { MutedWord } from '@/lib/types'
import { MutedWordsCard } from './muted-words-card'

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString()
const election: MutedWord = { id: 1, text: 'election', createdAt: hoursFromNow(-5), expiresAt: null }

/** The server's muted words: listed, added (a refusal for words without letters), removed. */
function server(initial: MutedWord[]) {
  let words = initial
  return mockFetch((url, init) => {
    if (init.method === 'POST') {
      const body = jsonBody(init) as { text: string; hours?: number }
      if (!/\p{L}|\p{N}/u.test(body.text)) return json({ message: 'A muted word needs at least one letter or digit' }, 400)
      const added = {
        id: 9,
        text: body.text,
        createdAt: new Date().toISOString(),
        expiresAt: body.hours ? hoursFromNow(body.hours) : null,
      }
      words = [added, ...words]
      return json(added, 201)
    }
    if (init.method === 'DELETE') {
      words = words.filter((w) => url !== `/api/muted-words/${w.id}`)
      return new Response(null, { status: 204 })
    }
    return json(words)
  })
}

afterEach(() => vi.unstubAllGlobals())

describe('the muted words card', () => {
  it('adds a word for a time, lists when each ends, and removes one', async () => {
    const fetch = server([election])
    renderWithProviders(<MutedWordsCard />)
    const region = await screen.findByRole('region', { name: 'Muted words' })
    expect(await within(region).findByText('Muted until you remove it')).toBeInTheDocument()

    await userEvent.type(within(region).getByLabelText('Word, phrase or hashtag'), '#spoilers')
    await userEvent.selectOptions(within(region).getByLabelText('For'), '7 days')
    await userEvent.click(within(region).getByRole('button', { name: 'Mute' }))

    expect(await within(region).findByText('#spoilers')).toBeInTheDocument()
    expect(within(region).getByText(/^Muted until \w+ \d+, \d{4}/)).toBeInTheDocument()
    expect(within(region).getByLabelText('Word, phrase or hashtag')).toHaveValue('')
    const posted = requestsOf(fetch).find(({ call }) => call === 'POST /api/muted-words')
    expect(posted?.body).toEqual({ text: '#spoilers', hours: 168 })

    await userEvent.click(within(region).getByRole('button', { name: 'Remove “election”' }))
    expect(await screen.findByText('Unmuted “election”')).toBeInTheDocument()
    expect(within(region).queryByText('election')).not.toBeInTheDocument()
  })

  it('says what is wrong and keeps what was typed', async () => {
    const fetch = server([])
    renderWithProviders(<MutedWordsCard />)
    const region = await screen.findByRole('region', { name: 'Muted words' })
    await within(region).findByText("You haven't muted any words.")

    await userEvent.click(within(region).getByRole('button', { name: 'Mute' }))
    expect(await within(region).findByText('Type a word, phrase or hashtag to mute.')).toBeInTheDocument()
    expect(requestsOf(fetch).map(({ call }) => call)).not.toContain('POST /api/muted-words')

    await userEvent.type(within(region).getByLabelText('Word, phrase or hashtag'), '#!?')
    await userEvent.click(within(region).getByRole('button', { name: 'Mute' }))
    expect(await within(region).findByText('A muted word needs at least one letter or digit')).toBeInTheDocument()
    expect(within(region).getByLabelText('Word, phrase or hashtag')).toHaveValue('#!?')
    expect(requestsOf(fetch).find(({ call }) => call === 'POST /api/muted-words')?.body).toEqual({ text: '#!?' })
  })
})

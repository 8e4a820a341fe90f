import * as React from 'react'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { messageOf } from '@/lib/api-client'
import { handleUnauthorized } from '@/lib/unauthorized'
import { dateTime, endDate } from '@/lib/utils'
import type { MutedWord } from '@/lib/types'
import { MUTED_WORD_MAX_CHARS, useMutedWords, useMuteWord, useUnmuteWord } from '../api/muted-words'

/** The lengths offered, in hours ('' : until removed). */
const DURATIONS = [
  { value: '', label: 'Forever' },
  { value: '24', label: '24 hours' },
  { value: '168', label: '7 days' },
  { value: '720', label: '30 days' },
] as const

/** When a muted word ends, in words. */
export function mutedWordEnds(expiresAt?: string | null): string {
  const end = endDate(expiresAt)
  return end ? `Muted until ${dateTime(end)}` : 'Muted until you remove it'
}

/**
 * The member's muted words: add a word, phrase or hashtag for a time or for good, see when each
 * ends, remove one. Posts holding one leave Home, For You, notifications, search and tag pages;
 * threads fold them.
 */
export function MutedWordsCard() {
  const words = useMutedWords()
  const unmute = useUnmuteWord()
  React.useEffect(() => {
    if (words.error) handleUnauthorized(words.error)
  }, [words.error])
  const list = words.data ?? []
  return (
    <Card role="region" aria-labelledby="muted-words-title">
      <CardHeader>
        <CardTitle id="muted-words-title">Muted words</CardTitle>
        <p className="text-sm text-muted-foreground">
          Posts with these words, phrases or hashtags are hidden from Home, For You, notifications, search and tag
          pages; in a thread they are folded. Whole words only, whatever their case and accents.
        </p>
      </CardHeader>
      <CardContent className="grid gap-4">
        <MuteWordForm />
        {words.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading...
          </p>
        ) : words.error ? (
          <LoadError what="Muted words" onRetry={() => void words.refetch()} retrying={words.isRefetching} />
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">You haven&apos;t muted any words.</p>
        ) : (
          <ul className="divide-y divide-border" aria-label="Your muted words">
            {list.map((word) => (
              <MutedWordRow
                key={word.id}
                word={word}
                removing={unmute.isPending && unmute.variables?.id === word.id}
                onRemove={() => unmute.mutate(word)}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

function MutedWordRow({ word, removing, onRemove }: { word: MutedWord; removing: boolean; onRemove: () => void }) {
  return (
    <li className="flex items-center gap-3 py-3">
      <div className="min-w-0 flex-1">
        <p className="break-words font-semibold">{word.text}</p>
        <p className="text-sm text-muted-foreground">{mutedWordEnds(word.expiresAt)}</p>
      </div>
      <Button variant="outline" size="sm" aria-label={`Remove “${word.text}”`} disabled={removing} onClick={onRemove}>
        Remove
      </Button>
    </li>
  )
}

function MuteWordForm() {
  const mute = useMuteWord()
  const [text, setText] = React.useState('')
  const [hours, setHours] = React.useState('')
  const [error, setError] = React.useState<string | null>(null)

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault()
    const trimmed = text.trim()
    if (!trimmed) {
      setError('Type a word, phrase or hashtag to mute.')
      return
    }
    setError(null)
    // What was typed stays until the server took it: a refusal leaves it to correct.
    mute.mutate(
      { text: trimmed, ...(hours ? { hours: Number(hours) } : {}) },
      {
        onSuccess: () => setText(''),
        onError: (failure) => {
          if (!handleUnauthorized(failure)) setError(messageOf(failure, 'Muting failed. Please try again.'))
        },
      },
    )
  }

  return (
    <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={handleSubmit} noValidate>
      <Field id="muted-word-text" label="Word, phrase or hashtag" error={error} className="flex-1">
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="#spoilers"
          maxLength={MUTED_WORD_MAX_CHARS}
          autoComplete="off"
        />
      </Field>
      <div className="grid gap-2">
        <Label htmlFor="muted-word-duration">For</Label>
        <select
          id="muted-word-duration"
          value={hours}
          onChange={(e) => setHours(e.target.value)}
          className="flex h-10 rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm"
        >
          {DURATIONS.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" disabled={mute.isPending}>
        {mute.isPending ? 'Muting...' : 'Mute'}
      </Button>
    </form>
  )
}

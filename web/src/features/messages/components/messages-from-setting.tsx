import * as React from 'react'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import type { MessagesFrom } from '@/lib/types'
import { toastFailure } from '@/lib/toast-failure'
import { useMessagesFrom, useSetMessagesFrom } from '../api/set-messages-from'

const CHOICES: { value: MessagesFrom; label: string; hint: string }[] = [
  { value: 'everyone', label: 'Everyone', hint: 'People you don’t follow arrive under Requests.' },
  { value: 'following', label: 'People I follow', hint: 'Only people you follow can start a conversation.' },
  { value: 'nobody', label: 'No one', hint: 'Conversations already started go on.' },
]

/** Settings' "Allow new messages from": who may start a conversation with the member; saved at once. */
export function MessagesFromSetting() {
  const id = React.useId()
  const saved = useMessagesFrom()
  const save = useSetMessagesFrom()
  // The choice shows as the member makes it, before the saving even starts (a radio the
  // component holds would otherwise spring back for a moment).
  const [asked, setAsked] = React.useState<MessagesFrom | null>(null)
  const chosen = asked ?? saved
  return (
    <Card role="region" aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle id={`${id}-title`}>Messages</CardTitle>
      </CardHeader>
      <CardContent>
        <fieldset className="grid gap-3">
          <legend className="mb-2 font-medium">Allow new messages from</legend>
          {CHOICES.map((choice) => (
            <div key={choice.value} className="grid grid-cols-[auto_1fr] items-center gap-x-3">
              <input
                id={`${id}-${choice.value}`}
                type="radio"
                name={`${id}-messages-from`}
                value={choice.value}
                checked={chosen === choice.value}
                onChange={() => {
                  setAsked(choice.value)
                  save.mutate(choice.value, {
                    onError: (error) => toastFailure(error, 'Failed to save the setting. Please try again.'),
                    onSettled: () => setAsked((current) => (current === choice.value ? null : current)),
                  })
                }}
                aria-describedby={`${id}-${choice.value}-hint`}
                className="size-5 accent-primary"
              />
              <label htmlFor={`${id}-${choice.value}`}>{choice.label}</label>
              <p id={`${id}-${choice.value}-hint`} className="col-start-2 text-sm text-muted-foreground">
                {choice.hint}
              </p>
            </div>
          ))}
        </fieldset>
      </CardContent>
    </Card>
  )
}

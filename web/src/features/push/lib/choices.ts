// What a member chooses to be pushed: the server's alert and policy names, in the app's words.

/** The alerts, in the order Settings lists them. */
export const PUSH_ALERTS = [
  { name: 'reply', label: 'Replies' },
  { name: 'mention', label: 'Mentions' },
  { name: 'like', label: 'Likes' },
  { name: 'repost', label: 'Reposts' },
  { name: 'quote', label: 'Quotes' },
  { name: 'follow', label: 'New followers' },
  { name: 'poll', label: 'Polls' },
] as const

export type PushAlert = (typeof PUSH_ALERTS)[number]['name']

/** `all`: from everyone; `followed`: only from members the member follows. */
export type PushPolicy = 'all' | 'followed'

export interface PushChoices {
  alerts: Record<PushAlert, boolean>
  policy: PushPolicy
}

/** A new subscription pushes everything, from everyone: the member narrows it from there. */
export const EVERYTHING: PushChoices = {
  alerts: { reply: true, mention: true, like: true, repost: true, quote: true, follow: true, poll: true },
  policy: 'all',
}

/** The choices a saved subscription holds (an alert the server does not name is off). */
export function choicesOf(saved: { alerts: Record<string, boolean>; policy: string }): PushChoices {
  const alerts = Object.fromEntries(PUSH_ALERTS.map(({ name }) => [name, saved.alerts[name] === true]))
  return { alerts: alerts as Record<PushAlert, boolean>, policy: saved.policy === 'followed' ? 'followed' : 'all' }
}

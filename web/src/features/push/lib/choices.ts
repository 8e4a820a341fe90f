// What a member chooses to be pushed: the server's alert and policy names, in the app's words.
import type { components } from '@/lib/api-schema'

/** The server's alert names (`PushAlerts` in the OpenAPI document). */
export type PushAlert = keyof components['schemas']['PushAlerts']

/** Each alert in the app's words, in the order Settings lists them: one for every alert. */
const LABELS: Record<PushAlert, string> = {
  reply: 'Replies',
  mention: 'Mentions',
  like: 'Likes',
  repost: 'Reposts',
  quote: 'Quotes',
  follow: 'New followers',
  poll: 'Polls',
  message: 'Messages',
}

export const PUSH_ALERTS = (Object.keys(LABELS) as PushAlert[]).map((name) => ({ name, label: LABELS[name] }))

/** `all`: from everyone; `followed`: only from members the member follows. */
export type PushPolicy = 'all' | 'followed'

export interface PushChoices {
  alerts: Record<PushAlert, boolean>
  policy: PushPolicy
}

/** A new subscription pushes everything, from everyone: the member narrows it from there. */
export const EVERYTHING: PushChoices = {
  alerts: Object.fromEntries(PUSH_ALERTS.map(({ name }) => [name, true])) as Record<PushAlert, boolean>,
  policy: 'all',
}

/** The choices a saved subscription holds (an alert the server does not name is off). */
export function choicesOf(saved: { alerts: Record<string, boolean>; policy: string }): PushChoices {
  const alerts = Object.fromEntries(PUSH_ALERTS.map(({ name }) => [name, saved.alerts[name] === true]))
  return { alerts: alerts as Record<PushAlert, boolean>, policy: saved.policy === 'followed' ? 'followed' : 'all' }
}

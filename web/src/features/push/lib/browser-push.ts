// The browser's side of Web Push: permission, the service worker and the push subscription.
// Everything here touches browser APIs, and nothing else in the feature does (tests fake them here).
import * as React from 'react'

/** Built from src/service-worker/sw.ts; at the root, so its scope is the whole site. */
export const SERVICE_WORKER_URL = '/sw.js'

/** Whether this browser can receive pushes at all (an iPhone only once Murmur is on its Home Screen). */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
}

export type PushPermission = NotificationPermission | 'unsupported'

const PERMISSION_CHANGED = 'murmur-notification-permission-changed'

function readPermission(): PushPermission {
  return pushSupported() ? Notification.permission : 'unsupported'
}

function subscribePermission(onChange: () => void) {
  // The browser's own settings can change it while the page is open: look again on return.
  window.addEventListener(PERMISSION_CHANGED, onChange)
  window.addEventListener('focus', onChange)
  return () => {
    window.removeEventListener(PERMISSION_CHANGED, onChange)
    window.removeEventListener('focus', onChange)
  }
}

/** The notifications permission of this site in this browser, kept current. */
export function useNotificationPermission(): PushPermission {
  return React.useSyncExternalStore(subscribePermission, readPermission, () => 'default')
}

/** Asks the browser for the notifications permission: only ever from a member's click. */
export async function askPermission(): Promise<NotificationPermission> {
  const answer = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission
  window.dispatchEvent(new Event(PERMISSION_CHANGED))
  return answer
}

/** What the server is sent of a browser's subscription (`PushSubscription.toJSON()`). */
export interface BrowserSubscription {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

function asSent(subscription: PushSubscription): BrowserSubscription {
  const { endpoint, keys } = subscription.toJSON()
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new Error('The browser gave a subscription without keys.')
  return { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } }
}

/** The bytes of a base64url string (the server's public key). */
function bytesOf(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/')
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  return Uint8Array.from(text, (c) => c.charCodeAt(0))
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array) {
  if (!a || a.byteLength !== b.length) return false
  const bytes = new Uint8Array(a)
  return bytes.every((byte, i) => byte === b[i])
}

/**
 * This browser's subscription for the instance's key `publicKey`: the one it has, or a new one
 * (registering the service worker first). One made with another key is replaced, since its
 * pushes would fail. Needs the permission granted.
 */
export async function subscribeBrowser(publicKey: string): Promise<BrowserSubscription> {
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' })
  // Subscribing needs an active worker; `ready` waits for it.
  const registration = await navigator.serviceWorker.ready
  const key = bytesOf(publicKey)
  const existing = await registration.pushManager.getSubscription()
  if (existing && sameKey(existing.options.applicationServerKey, key)) return asSent(existing)
  await existing?.unsubscribe()
  const subscribing = registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
  return asSent(await Promise.race([subscribing, noAnswerAfter(SUBSCRIBE_TIMEOUT_MS)]))
}

/**
 * How long the browser's push service may take to subscribe: it is reached over the network, and
 * one that cannot be reached would leave the switch turning on for ever.
 */
const SUBSCRIBE_TIMEOUT_MS = 15_000

function noAnswerAfter(ms: number): Promise<never> {
  return new Promise((_, fail) =>
    setTimeout(() => fail(new DOMException("The browser's push service did not answer.", 'TimeoutError')), ms),
  )
}

/** Ends this browser's subscription, if it has one (the service worker stays, idle). */
export async function unsubscribeBrowser(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration('/')
  const subscription = await registration?.pushManager.getSubscription()
  await subscription?.unsubscribe()
}

/** Whether this browser holds a push subscription of this site (asks nothing, registers nothing). */
export async function browserIsSubscribed(): Promise<boolean> {
  if (Notification.permission !== 'granted') return false
  const registration = await navigator.serviceWorker.getRegistration('/')
  return Boolean(await registration?.pushManager.getSubscription())
}

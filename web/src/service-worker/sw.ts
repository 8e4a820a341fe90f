// Murmur's service worker, served as /sw.js so its scope is the whole site (docs/push.md). It is
// only for Web Push: it shows a pushed notification and opens its page when clicked. It has no
// fetch handler and caches nothing, so the app is always what the server serves.
// It imports nothing, so its build is one plain script (vite.config.ts).

declare const self: ServiceWorkerGlobalScope

/** What the server pushes (crates/domain/src/push/store.rs, `Payload`). */
interface PushPayload {
  title: string
  body: string
  /** The web app's page of the post or profile, under the instance's origin. */
  link: string
  /** One tag per thing: a post's likes replace each other on the device. */
  tag: string
}

/** `renotify` is not in TypeScript's NotificationOptions, though browsers honour it. */
interface ShownOptions extends NotificationOptions {
  renotify?: boolean
}

self.addEventListener('install', () => {
  // A new version takes over at once: the worker keeps no state a page could depend on.
  void self.skipWaiting()
})

self.addEventListener('activate', (event) => {
  // Tabs opened before the worker was registered become its clients, so a click can navigate them.
  event.waitUntil(self.clients.claim())
})

self.addEventListener('push', (event) => {
  const push = payloadOf(event.data)
  const options: ShownOptions = {
    body: push.body,
    tag: push.tag,
    // A second like of the same post replaces the first and still tells the member.
    renotify: true,
    icon: '/icon-192.png',
    data: { link: push.link },
  }
  event.waitUntil(self.registration.showNotification(push.title, options))
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  event.waitUntil(open(linkOf(event.notification.data)))
})

/** The push's payload; a push the worker cannot read still shows something (browsers require it). */
function payloadOf(data: PushMessageData | null): PushPayload {
  const fallback = { title: 'Murmur', body: 'You have a new notification', link: '/notifications', tag: 'murmur' }
  try {
    const parsed = (data?.json() ?? {}) as Partial<PushPayload>
    return {
      title: typeof parsed.title === 'string' ? parsed.title : fallback.title,
      body: typeof parsed.body === 'string' ? parsed.body : fallback.body,
      link: typeof parsed.link === 'string' ? parsed.link : fallback.link,
      tag: typeof parsed.tag === 'string' ? parsed.tag : fallback.tag,
    }
  } catch {
    return fallback
  }
}

/** Where a click goes: the notification's link when it is a page of this site, else the notifications screen. */
function linkOf(data: unknown): string {
  const link = data && typeof data === 'object' && 'link' in data ? data.link : undefined
  try {
    const url = new URL(typeof link === 'string' ? link : '/notifications', self.location.origin)
    if (url.origin === self.location.origin) return url.href
  } catch {
    // not a URL: the notifications screen
  }
  return new URL('/notifications', self.location.origin).href
}

/** Focuses an open Murmur tab and shows `url` in it, or opens a new one. */
async function open(url: string) {
  const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const tab = tabs.find((t) => t.url === url) ?? tabs.find((t) => t.focused) ?? tabs[0]
  if (!tab) {
    await self.clients.openWindow(url)
    return
  }
  // Focusing needs the click's permission to move windows; without it the tab still shows the page.
  const focused = await tab.focus().catch(() => tab)
  if (focused.url === url) return
  try {
    await focused.navigate(url)
  } catch {
    // A tab this worker does not control cannot be navigated: open the page beside it.
    await self.clients.openWindow(url)
  }
}

export {}

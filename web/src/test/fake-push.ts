// Stand-ins for the browser's side of Web Push (Notification, navigator.serviceWorker,
// PushManager): tests play the browser's part and read what the app asked of it.
import { vi } from 'vitest'

/** The server's key as the tests' fake `/api/push/key` answers it (65 bytes, base64url). */
export const SERVER_KEY = 'B' + 'A'.repeat(86)

export interface FakePushOptions {
  /** Notification.permission before anything is asked. */
  permission?: NotificationPermission
  /** What the browser's question is answered with (requestPermission). */
  answer?: NotificationPermission
  /** The browser already holds a subscription (made with SERVER_KEY). */
  subscribed?: boolean
  /** pushManager.subscribe fails, as without a push service. */
  subscribeFails?: boolean
}

/** A browser subscription as `toJSON()` gives it. */
export const browserSubscription = (n = 1) => ({
  endpoint: `https://push.example/send/${n}`,
  keys: { p256dh: `p256dh-${n}`, auth: `auth-${n}` },
})

function keyBytes(base64url: string) {
  return Uint8Array.from(atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4)), (c) =>
    c.charCodeAt(0),
  ).buffer
}

/** Installs the fakes; `unstubAllGlobals` and `uninstall` remove them. */
export function fakePush(options: FakePushOptions = {}) {
  let made = 0
  const state = {
    permission: options.permission ?? 'default',
    asked: 0,
    registered: [] as { url: string; scope?: string }[],
    subscribeCalls: [] as PushSubscriptionOptionsInit[],
    unsubscribed: 0,
    subscription: null as ReturnType<typeof subscription> | null,
  }
  function subscription(json: ReturnType<typeof browserSubscription>) {
    return {
      endpoint: json.endpoint,
      options: { applicationServerKey: keyBytes(SERVER_KEY), userVisibleOnly: true },
      toJSON: () => ({ ...json, expirationTime: null }),
      unsubscribe: () => {
        state.unsubscribed++
        state.subscription = null
        return Promise.resolve(true)
      },
    }
  }
  if (options.subscribed) state.subscription = subscription(browserSubscription(++made))
  const pushManager = {
    getSubscription: () => Promise.resolve(state.subscription),
    subscribe: (init: PushSubscriptionOptionsInit) => {
      state.subscribeCalls.push(init)
      if (options.subscribeFails)
        return Promise.reject(new DOMException('Registration failed - push service not available', 'AbortError'))
      state.subscription = subscription(browserSubscription(++made))
      return Promise.resolve(state.subscription)
    },
  }
  const registration = { pushManager }
  const serviceWorker = {
    register: (url: string, init?: RegistrationOptions) => {
      state.registered.push({ url, scope: init?.scope })
      return Promise.resolve(registration)
    },
    ready: Promise.resolve(registration),
    getRegistration: () => Promise.resolve(state.registered.length > 0 || state.subscription ? registration : undefined),
  }
  class FakeNotification {
    static get permission() {
      return state.permission
    }
    static requestPermission() {
      state.asked++
      state.permission = options.answer ?? 'granted'
      return Promise.resolve(state.permission)
    }
  }
  vi.stubGlobal('Notification', FakeNotification)
  vi.stubGlobal('PushManager', class {})
  Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true })
  return state
}

/** Removes navigator.serviceWorker (vi.unstubAllGlobals removes the rest). */
export function uninstallFakePush() {
  Reflect.deleteProperty(navigator, 'serviceWorker')
  vi.unstubAllGlobals()
}

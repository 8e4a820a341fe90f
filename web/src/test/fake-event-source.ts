// A stand-in for the browser's EventSource: tests play the server's part, no network.

type Listener = (event: MessageEvent<string>) => void

export class FakeEventSource {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSED = 2
  /** Every stream opened since the last `reset`, oldest first. */
  static opened: FakeEventSource[] = []

  static reset() {
    FakeEventSource.opened = []
  }

  /** The stream opened last. */
  static get latest(): FakeEventSource {
    const latest = FakeEventSource.opened.at(-1)
    if (!latest) throw new Error('no EventSource was opened')
    return latest
  }

  readonly url: string
  readyState: number = FakeEventSource.CONNECTING
  private readonly listeners = new Map<string, Listener[]>()

  constructor(url: string | URL) {
    this.url = String(url)
    FakeEventSource.opened.push(this)
  }

  get isClosed() {
    return this.readyState === FakeEventSource.CLOSED
  }

  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }

  close() {
    this.readyState = FakeEventSource.CLOSED
  }

  /** The server sends event `type` with `data` (as JSON unless a string) and `id`. */
  emit(type: string, data: unknown = {}, id = '') {
    this.readyState = FakeEventSource.OPEN
    const message = new MessageEvent<string>(type, { data: typeof data === 'string' ? data : JSON.stringify(data), lastEventId: id })
    for (const listener of this.listeners.get(type) ?? []) listener(message)
  }

  /** The connection fails: the browser tries again by itself, or (`gaveUp`) closes the stream. */
  fail({ gaveUp }: { gaveUp: boolean }) {
    this.readyState = gaveUp ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING
    for (const listener of this.listeners.get('error') ?? []) listener(new MessageEvent<string>('error'))
  }
}

import * as React from 'react'
import type { Post } from '@/lib/types'

const ComposeDialog = React.lazy(() => import('./compose-dialog'))

interface ComposeRequest {
  replyTo?: Post
  /** The post a new post quotes, shown under its text. */
  quoteOf?: Post
}

interface ComposeState {
  openCompose: (request?: ComposeRequest) => void
}

const ComposeContext = React.createContext<ComposeState>({ openCompose: () => {} })

/** Holds the one "Create Post" dialog, for new posts and for replies. */
export function ComposeProvider({ children }: { children: React.ReactNode }) {
  const [request, setRequest] = React.useState<ComposeRequest | null>(null)
  const [everOpened, setEverOpened] = React.useState(false)
  // What had focus when the dialog opened (New Post, or a card's Reply): focus goes back there.
  const [opener, setOpener] = React.useState<HTMLElement | null>(null)
  const value = React.useMemo<ComposeState>(
    () => ({
      openCompose: (next = {}) => {
        setOpener(document.activeElement instanceof HTMLElement ? document.activeElement : null)
        setEverOpened(true)
        setRequest(next)
      },
    }),
    [],
  )
  return (
    <ComposeContext.Provider value={value}>
      {children}
      {everOpened && (
        <React.Suspense fallback={null}>
          <ComposeDialog
            open={request !== null}
            replyTo={request?.replyTo}
            quoteOf={request?.quoteOf}
            opener={opener}
            onOpenChange={(open) => {
              if (!open) setRequest(null)
            }}
          />
        </React.Suspense>
      )}
    </ComposeContext.Provider>
  )
}

export function useCompose(): ComposeState {
  return React.useContext(ComposeContext)
}

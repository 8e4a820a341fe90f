import * as React from 'react'
import { useSearchParams } from 'wouter'
import { Lock, MessageSquare, SquarePen } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import type { ConversationBox } from '@/lib/query-keys'
import { cn } from '@/lib/utils'
import { useCurrentUser } from '@/features/auth'
import { ConversationList } from './conversation-list'
import { ConversationView } from './conversation-view'
import { NewMessageDialog } from './new-message-dialog'

const boxOf = (params: URLSearchParams): ConversationBox => (params.get('box') === 'requests' ? 'requests' : 'inbox')

/** The honest word on who can read messages, shown with the list. */
export const PRIVACY_NOTE = 'Messages are private but not end-to-end encrypted. Moderators read only what is reported.'

/**
 * Messages: the member's conversations (Inbox and Requests) and the open one. From 1024 px they
 * sit side by side; on a phone one at a time, the conversation with a link back to the list.
 * The screen fills the height between the bars, so the conversation scrolls inside it and the
 * composer stays in sight. The box shown lives in the address (`?box=requests`), so going back
 * to the list finds it where it was.
 */
export function MessagesScreen({ openId }: { openId: number | null }) {
  const { data: me } = useCurrentUser()
  const [params, setParams] = useSearchParams()
  const box = boxOf(params)
  const [composing, setComposing] = React.useState(false)
  if (!me) return null
  return (
    <div className="flex h-[calc(100dvh_-_7rem_-_env(safe-area-inset-bottom))] lg:h-dvh">
      <section
        aria-labelledby="messages-title"
        className={cn(
          'min-w-0 flex-1 flex-col lg:w-80 lg:flex-none lg:border-r lg:border-border',
          openId === null ? 'flex' : 'hidden lg:flex',
        )}
      >
        <div className="flex min-h-14 items-center gap-2 border-b border-border px-4">
          <h1 id="messages-title" className="min-w-0 flex-1 text-xl font-bold">
            Messages
          </h1>
          <Button size="sm" className="rounded-full" onClick={() => setComposing(true)}>
            <SquarePen aria-hidden="true" /> New message
          </Button>
        </div>
        <Tabs
          value={box}
          onValueChange={(value) => setParams(value === 'requests' ? { box: 'requests' } : {}, { replace: true })}
          className="flex min-h-0 flex-1 flex-col"
        >
          <div className="border-b border-border px-4 py-2">
            <TabsList aria-label="Conversations shown">
              <TabsTrigger value="inbox">Inbox</TabsTrigger>
              <TabsTrigger value="requests">Requests</TabsTrigger>
            </TabsList>
          </div>
          {(['inbox', 'requests'] as const).map((shown) => (
            <TabsContent key={shown} value={shown} className="mt-0 min-h-0 flex-1 overflow-y-auto">
              <ConversationList box={shown} memberId={me.id} openId={openId} />
            </TabsContent>
          ))}
        </Tabs>
        <p className="flex gap-2 border-t border-border px-4 py-3 text-xs text-muted-foreground">
          <Lock className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          {PRIVACY_NOTE}
        </p>
      </section>
      <section
        aria-label="Conversation"
        className={cn('min-w-0 flex-1 flex-col', openId === null ? 'hidden lg:flex' : 'flex')}
      >
        {openId === null ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-3 px-6 text-center">
            <MessageSquare className="size-10 text-muted-foreground" aria-hidden="true" />
            <p className="text-lg font-semibold">Choose a conversation</p>
            <p className="text-muted-foreground">Or start a new one with the people you choose.</p>
            <Button variant="outline" className="rounded-full" onClick={() => setComposing(true)}>
              <SquarePen aria-hidden="true" /> New message
            </Button>
          </div>
        ) : (
          <ConversationView key={openId} id={openId} memberId={me.id} />
        )}
      </section>
      <NewMessageDialog open={composing} onOpenChange={setComposing} memberId={me.id} />
    </div>
  )
}

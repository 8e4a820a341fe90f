import * as React from 'react'
import { KeyRound } from 'lucide-react'
import { Logo } from '@/components/logo'
import { StatusScreen } from '@/components/status-screen'
import { Button } from '@/components/ui/button'
import { messageOf } from '@/lib/api-client'
import { LoginDialog, useMe } from '@/features/auth'
import { useAnswerAuthorization } from '../api/answer-authorization'
import { useAuthorization } from '../api/get-authorization'
import type { AppRequest } from '@/lib/types'
import {
  type AuthorizationParams,
  authorizationParams,
  rememberPendingAuthorization,
  scopeRefusalUrl,
  scopesInWords,
} from '../lib/authorization'

/**
 * /oauth/authorize: an app (a Mastodon app, say) asks to act for the member. A visitor signs in
 * first (the e-mailed link brings them back here); a member reads what the app asks and allows
 * or denies it.
 */
export function ConsentScreen() {
  const [params] = React.useState(() => authorizationParams(window.location.search))
  const me = useMe()
  if (!params) {
    return (
      <StatusScreen
        status="error"
        title="This sign-in link is incomplete"
        message="The app did not say who it is. Start signing in from the app again."
      />
    )
  }
  if (me.isPending) return <StatusScreen status="loading" title="Loading..." message="One moment" />
  if (!me.data) return <SignInFirst />
  return <Consent params={params} username={me.data.username} />
}

function SignInFirst() {
  const [open, setOpen] = React.useState(false)
  return (
    <Frame title="Sign in to Murmur to continue">
      <p className="text-muted-foreground">
        An app wants to connect to your Murmur account. Sign in first; the link we e-mail you brings you back here.
      </p>
      <Button
        onClick={() => {
          rememberPendingAuthorization(window.location.pathname + window.location.search)
          setOpen(true)
        }}
      >
        Sign in
      </Button>
      <LoginDialog open={open} onOpenChange={setOpen} />
    </Frame>
  )
}

function Consent({ params, username }: { params: AuthorizationParams; username: string }) {
  const request = useAuthorization(params)
  const answer = useAnswerAuthorization(params)
  const [code, setCode] = React.useState<string | null>(null)

  function decide(allow: boolean) {
    answer.mutate(allow, {
      onSuccess: (result) => {
        if (result.redirectTo) window.location.assign(result.redirectTo)
        else if (result.code) setCode(result.code)
        else window.location.assign('/')
      },
    })
  }

  if (request.isPending) return <StatusScreen status="loading" title="Loading..." message="Checking the app" />
  if (request.error) {
    return (
      <StatusScreen
        status="error"
        title="This app cannot connect"
        message={messageOf(request.error, 'The app could not be checked. Please try again.')}
      />
    )
  }
  const app = request.data
  if (app.scopesBeyondApp.length > 0) return <ScopesRefused app={app} state={params.state} />
  if (code) {
    return (
      <Frame title={`${app.appName} is connected`}>
        <p className="text-muted-foreground">Copy this code into {app.appName} to finish signing in:</p>
        <output className="block select-all break-all rounded-md border border-border bg-muted p-3 font-mono text-sm">{code}</output>
        <Button variant="outline" onClick={() => void navigator.clipboard?.writeText(code)}>
          Copy code
        </Button>
      </Frame>
    )
  }
  const writes = app.scope.split(' ').some((scope) => scope.startsWith('write'))
  const done = answer.isPending || answer.isSuccess
  return (
    <Frame title={`${app.appName} wants to ${writes ? 'read and write' : 'read'} as @${username}`}>
      {app.appWebsite && (
        <p className="text-sm text-muted-foreground">
          From{' '}
          <a className="underline" href={app.appWebsite} rel="noopener noreferrer" target="_blank">
            {app.appWebsite}
          </a>
        </p>
      )}
      <div className="w-full text-left">
        <h2 className="mb-2 font-semibold">It will be able to:</h2>
        <ul className="list-disc space-y-1 pl-5 text-sm">
          {app.abilities.map((ability) => (
            <li key={ability}>{ability}</li>
          ))}
        </ul>
      </div>
      <p className="text-sm text-muted-foreground">You can revoke its access at any time in Settings, under Connected apps.</p>
      <p className="text-sm">
        Allow and Deny send you to <strong className="break-all font-semibold">{app.redirectHost ?? 'this page'}</strong>
      </p>
      <div className="flex w-full gap-3">
        <Button variant="outline" className="flex-1" disabled={done} onClick={() => decide(false)}>
          Deny
        </Button>
        <Button className="flex-1" disabled={done} onClick={() => decide(true)}>
          Allow
        </Button>
      </div>
    </Frame>
  )
}

/** An app asking for scopes it never registered: nothing to allow, only a way back. */
function ScopesRefused({ app, state }: { app: AppRequest; state?: string }) {
  const back = scopeRefusalUrl(app.redirectUri, state)
  return (
    <Frame title={`${app.appName} cannot connect`}>
      <p className="text-muted-foreground">
        {app.appName} asks for {scopesInWords(app.scopesBeyondApp)}, which it did not register, so it cannot connect to your
        account. Try signing in from the app again; if this keeps happening, tell the app’s makers.
      </p>
      <Button asChild className="w-full">
        {back ? <a href={back}>Back to {app.appName}</a> : <a href="/">Go to Home</a>}
      </Button>
    </Frame>
  )
}

function Frame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 px-4 py-8 text-center">
      <Logo />
      <section
        aria-labelledby="consent-title"
        className="flex w-full max-w-md flex-col items-center gap-4 rounded-xl border border-border p-6 sm:p-8"
      >
        <KeyRound className="size-10 text-primary" aria-hidden="true" />
        <h1 id="consent-title" className="break-words text-2xl font-bold">
          {title}
        </h1>
        {children}
      </section>
    </main>
  )
}

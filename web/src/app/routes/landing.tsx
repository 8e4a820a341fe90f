import * as React from 'react'
import { useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { Logo } from '@/components/logo'
import { AccountDeletedNotice } from '@/features/account/components/account-deleted-notice'
import { WaitlistForm } from '@/features/auth/components/waitlist-form'
import { Deferred } from '@/components/ui/deferred'
import { returnPath } from '@/lib/return-path'
import { usePrefersReducedMotion } from '@/lib/use-prefers-reduced-motion'
import type { LoginMode } from '@/features/auth/components/login-dialog'

// The login dialog is not part of the landing page's first screen: its code loads after it
// (or at once, when the page opens with the dialog).
const LoginDialog = React.lazy(() =>
  import('@/features/auth/components/login-dialog').then((module) => ({ default: module.LoginDialog })),
)

const stats = [
  { value: '100%', label: 'Human' },
  { value: '0', label: 'Bots' },
  { value: '∞', label: 'Real', spoken: 'infinity' },
]

/** The invite code of an invite link (`/join/{code}`), if the page is one. */
function inviteOf(path: string): string | null {
  const code = /^\/join\/([A-Za-z0-9]{1,40})$/.exec(path)?.[1]
  return code ? code.toUpperCase() : null
}

/**
 * A visitor's page on any path: the waitlist, "I have an invite" (sign-up) and Login. An invite
 * link (`/join/{code}`) opens sign-up with its code; on any other page (a shared post), signing in
 * by the e-mailed link comes back to it.
 */
export default function LandingRoute() {
  const reducedMotion = usePrefersReducedMotion()
  const [location] = useLocation()
  const invite = inviteOf(location)
  const returnTo = invite === null && location !== '/' ? returnPath(location) : null
  const [dialog, setDialog] = React.useState<LoginMode | null>(() =>
    invite !== null ? 'signup' : new URLSearchParams(window.location.search).get('login') === '1' ? 'login' : null,
  )
  const [openedAs, setOpenedAs] = React.useState<LoginMode>(dialog ?? 'signup')

  function openDialog(mode: LoginMode) {
    setOpenedAs(mode)
    setDialog(mode)
  }

  function handleLoginOpenChange(open: boolean) {
    setDialog(open ? openedAs : null)
    if (!open && window.location.search.includes('login=')) {
      window.history.replaceState(null, '', window.location.pathname)
    }
  }

  return (
    <div className="relative min-h-dvh overflow-hidden bg-zinc-950 text-white">
      <div className="absolute inset-0" aria-hidden="true">
        {reducedMotion ? (
          <img src="/landing-poster.jpg" alt="" width={1280} height={720} className="size-full object-cover" />
        ) : (
          <video
            className="size-full object-cover"
            src="/landing.mp4"
            poster="/landing-poster.jpg"
            autoPlay
            muted
            loop
            playsInline
            preload="auto"
            width={1280}
            height={720}
          />
        )}
        <div className="absolute inset-0 bg-gradient-to-b from-black/60 via-black/50 to-black/80" />
      </div>

      <header className="relative z-10 flex items-center justify-between px-4 py-4 sm:px-8">
        <Logo className="text-white [&_.fill-primary]:fill-white [&_.stroke-primary-foreground]:stroke-zinc-900" />
        <div className="flex items-center gap-2">
          <Button
            variant="outline"
            onClick={() => openDialog('signup')}
            className="border-white/70 bg-transparent px-3 text-white hover:bg-white/15 hover:text-white"
          >
            I have an invite
          </Button>
          <Button onClick={() => openDialog('login')} className="bg-white text-zinc-900 hover:bg-white/90">
            Login
          </Button>
        </div>
      </header>

      <main className="relative z-10 mx-auto flex min-h-[calc(100dvh-5rem)] max-w-3xl flex-col items-center justify-center gap-6 px-4 pb-16 text-center">
        <AccountDeletedNotice className="rounded-full bg-white/15 px-4 py-2 text-base font-medium backdrop-blur" />
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-6xl">The human network</h1>
        <p className="text-lg text-white/90 sm:text-2xl">Real voices. Real connections. No bots.</p>
        <WaitlistForm />
        <p className="text-sm text-white/85">Join the movement. Be among the first.</p>
        <dl className="mt-4 grid grid-cols-3 gap-6 sm:gap-12">
          {stats.map((stat) => (
            <div key={stat.label} className="flex flex-col-reverse items-center">
              <dt className="text-sm uppercase tracking-wide text-white/85">{stat.label}</dt>
              <dd className="text-3xl font-bold sm:text-4xl">
                {stat.spoken ? (
                  <>
                    <span aria-hidden="true">{stat.value}</span>
                    <span className="sr-only">{stat.spoken}</span>
                  </>
                ) : (
                  stat.value
                )}
              </dd>
            </div>
          ))}
        </dl>
      </main>

      <Deferred open={dialog !== null}>
        <LoginDialog
          open={dialog !== null}
          onOpenChange={handleLoginOpenChange}
          mode={openedAs}
          inviteCode={invite ?? ''}
          returnTo={returnTo}
        />
      </Deferred>
    </div>
  )
}

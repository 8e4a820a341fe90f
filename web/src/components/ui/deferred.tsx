import * as React from 'react'
import { useAfterFirstScreen } from '@/lib/after-first-screen'

/**
 * `children` (lazy components: a dialog, a sheet) rendered once the first screen is done
 * (`useAfterFirstScreen`), or at once while `open`, so that their code is not part of the
 * first screen and a dialog opened early still opens.
 */
export function Deferred({ open, children }: { open: boolean; children: React.ReactNode }) {
  const after = useAfterFirstScreen()
  if (!open && !after) return null
  return <React.Suspense fallback={null}>{children}</React.Suspense>
}

/** What a menu loaded apart takes: it wraps `trigger` (as its trigger) and opens at once if `defaultOpen`. */
export interface MenuProps {
  trigger: React.ReactElement
  defaultOpen: boolean
}

/** A menu's code, loaded apart. */
export type MenuModule = React.LazyExoticComponent<React.ComponentType<MenuProps>>

/**
 * A menu whose code (Radix's menu and positioning, ~15 KB gzip) is not part of the first
 * screen: until it has loaded, after the first screen (`useAfterFirstScreen`), its trigger is
 * drawn alone, looking and announced the same (a button that opens a menu). A press on it
 * before then loads the menu at once and opens it. Why: the member shell's menus were about a
 * tenth of Home's first-screen scripts, which a slow phone downloads before Home works
 * (docs/performance-web.md).
 */
export function DeferredMenu({ menu: Menu, trigger }: { menu: MenuModule; trigger: React.ReactElement }) {
  const after = useAfterFirstScreen()
  const [pressed, setPressed] = React.useState(false)
  const alone = React.cloneElement(trigger as React.ReactElement<React.ButtonHTMLAttributes<HTMLButtonElement>>, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onClick: () => setPressed(true),
  })
  if (!after && !pressed) return alone
  return (
    <React.Suspense fallback={alone}>
      <Menu trigger={trigger} defaultOpen={pressed} />
    </React.Suspense>
  )
}

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

/** A menu's code, loaded apart; `P` is what else it takes. */
export type MenuModule<P extends object = object> = React.LazyExoticComponent<React.ComponentType<MenuProps & P>>

/** The trigger drawn alone, looking and announced the same (a button that opens a menu). */
function standIn(trigger: React.ReactElement, handlers: React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return React.cloneElement(trigger as React.ReactElement<React.ButtonHTMLAttributes<HTMLButtonElement>>, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    ...handlers,
  })
}

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
  const alone = standIn(trigger, { onClick: () => setPressed(true) })
  if (!after && !pressed) return alone
  return (
    <React.Suspense fallback={alone}>
      <Menu trigger={trigger} defaultOpen={pressed} />
    </React.Suspense>
  )
}

/**
 * A menu drawn many times over (one on each post card), whose code loads when its trigger is
 * first pointed at or focused, and which is made only when pressed: a `DeferredMenu` for each
 * copy would wait for the first screen, and hold a menu, once per card. Until pressed the
 * trigger is drawn alone; the press makes the menu, open.
 */
export function MenuOnPress<P extends object>({
  menu: Menu,
  load,
  trigger,
  menuProps,
}: {
  menu: MenuModule<P>
  /** What `menu` was made from with `React.lazy`: called to fetch the code early. */
  load: () => Promise<unknown>
  trigger: React.ReactElement
  /** What the menu takes besides its trigger. */
  menuProps: P
}) {
  const [pressed, setPressed] = React.useState(false)
  const prefetch = () => void load()
  const alone = standIn(trigger, { onClick: () => setPressed(true), onPointerEnter: prefetch, onFocus: prefetch })
  if (!pressed) return alone
  return (
    <React.Suspense fallback={alone}>
      <Menu {...menuProps} trigger={trigger} defaultOpen />
    </React.Suspense>
  )
}

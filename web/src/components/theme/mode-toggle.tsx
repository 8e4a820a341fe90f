import * as React from 'react'
import { Moon, Sun } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { DeferredMenu } from '@/components/ui/deferred'

const ModeToggleMenu = React.lazy(() => import('./mode-toggle-menu'))

/** The light/dark toggle: a menu with Light, Dark and System, whose code loads after the first screen. */
export function ModeToggle() {
  return (
    <DeferredMenu
      menu={ModeToggleMenu}
      trigger={
        <Button variant="ghost" size="icon" aria-label="Toggle theme">
          <Sun className="size-5 dark:hidden" aria-hidden="true" />
          <Moon className="hidden size-5 dark:block" aria-hidden="true" />
        </Button>
      }
    />
  )
}

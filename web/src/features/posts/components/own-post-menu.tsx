import * as React from 'react'
import { MenuOnPress } from '@/components/ui/deferred'

const loadMenu = () => import('./own-post-menu-content')
const OwnPostMenuContent = React.lazy(loadMenu)

export interface OwnPostMenuProps {
  pinned: boolean
  onPinChange: (pinned: boolean) => void
  /** A button; it is given what opens the menu. */
  trigger: React.ReactElement
}

/** The "…" menu of the member's own post: Pin to profile (or Unpin). Its code loads when first pressed. */
export function OwnPostMenu({ trigger, ...menuProps }: OwnPostMenuProps) {
  return <MenuOnPress menu={OwnPostMenuContent} load={loadMenu} trigger={trigger} menuProps={menuProps} />
}

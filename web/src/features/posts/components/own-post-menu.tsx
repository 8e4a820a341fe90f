import * as React from 'react'
import { MenuOnPress } from '@/components/ui/deferred'

const loadMenu = () => import('./own-post-menu-content')
const OwnPostMenuContent = React.lazy(loadMenu)

export interface OwnPostMenuProps {
  pinned: boolean
  onPinChange: (pinned: boolean) => void
  /** Within the edit window: Edit, or why it cannot be edited. Offered here on a phone only, where the card's row has no room. */
  edit?: { onEdit: () => void } | { blocked: string }
  /** Offered here on a phone only, as Edit. */
  onDelete: () => void
  /** A button; it is given what opens the menu. */
  trigger: React.ReactElement
}

/**
 * The "…" menu of the member's own post: Pin to profile (or Unpin), and on a phone Edit and Delete. Its code loads
 * when first pressed.
 */
export function OwnPostMenu({ trigger, ...menuProps }: OwnPostMenuProps) {
  return <MenuOnPress menu={OwnPostMenuContent} load={loadMenu} trigger={trigger} menuProps={menuProps} />
}

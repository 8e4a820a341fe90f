import * as React from 'react'
import { MenuOnPress } from '@/components/ui/deferred'

const loadMenu = () => import('./repost-menu-content')
const RepostMenuContent = React.lazy(loadMenu)

export interface RepostMenuProps {
  isReposted: boolean
  /** Others may quote the post (its author may always quote it). */
  canQuote: boolean
  onRepost: () => void
  onQuote: () => void
  /** On the author's own post: whether others may quote it, and the switch. */
  quoting?: { allowed: boolean; onChange: (allowed: boolean) => void }
  /** A button; it is given what opens the menu. */
  trigger: React.ReactElement
}

/**
 * A card's repost button opens this menu: Repost (or Undo repost), Quote, and on the member's
 * own post the quoting switch. Its code loads when the button is first pointed at or pressed.
 */
export function RepostMenu({ trigger, ...menuProps }: RepostMenuProps) {
  return <MenuOnPress menu={RepostMenuContent} load={loadMenu} trigger={trigger} menuProps={menuProps} />
}

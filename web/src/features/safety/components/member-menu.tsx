import * as React from 'react'
import { MenuOnPress } from '@/components/ui/deferred'
import type { MemberRef, MemberRelation } from '../api/member-changed'

const loadMenu = () => import('./member-menu-content')
const MemberMenuContent = React.lazy(loadMenu)

export interface MemberMenuProps {
  member: MemberRef
  /** The post the menu is on: "Report post" then reports it rather than the member. */
  postId?: number
  /** Known already (a post card carries it): the menu opens whole at once, without asking for the profile. */
  relation?: MemberRelation
  /** A button; it is given what opens the menu. */
  trigger: React.ReactElement
  /** What the card adds about its post, listed first (e.g. taking one's own post out of a quote). */
  postActions?: PostAction[]
}

/** A card's own item in the member menu. */
export interface PostAction {
  label: string
  onSelect: () => void
}

/**
 * The "…" menu on another member's post or profile: mute, block, report, or undo them. Its
 * code loads when the trigger is first pointed at or pressed (there is one on each post card).
 */
export function MemberMenu({ member, postId, relation, trigger, postActions }: MemberMenuProps) {
  return (
    <MenuOnPress menu={MemberMenuContent} load={loadMenu} trigger={trigger} menuProps={{ member, postId, relation, postActions }} />
  )
}

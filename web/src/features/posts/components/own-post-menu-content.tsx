import { Pencil, Pin, PinOff, Trash2 } from 'lucide-react'
import type { MenuProps } from '@/components/ui/deferred'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import type { OwnPostMenuProps } from './own-post-menu'

/** The own post's menu itself (loaded apart: own-post-menu.tsx). */
export default function OwnPostMenuContent({
  trigger,
  defaultOpen,
  pinned,
  onPinChange,
  edit,
  onDelete,
}: MenuProps & Omit<OwnPostMenuProps, 'trigger'>) {
  return (
    <DropdownMenu defaultOpen={defaultOpen} modal={false}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-52">
        <DropdownMenuItem onSelect={() => onPinChange(!pinned)}>
          {pinned ? <PinOff aria-hidden="true" /> : <Pin aria-hidden="true" />}
          {pinned ? 'Unpin from profile' : 'Pin to profile'}
        </DropdownMenuItem>
        {/* On wider screens Edit and Delete are on the card itself. */}
        {edit && 'onEdit' in edit && (
          <DropdownMenuItem className="sm:hidden" onSelect={edit.onEdit}>
            <Pencil aria-hidden="true" />
            Edit post
          </DropdownMenuItem>
        )}
        {edit && 'blocked' in edit && (
          <DropdownMenuItem className="sm:hidden" disabled>
            <Pencil aria-hidden="true" />
            {edit.blocked}
          </DropdownMenuItem>
        )}
        <DropdownMenuItem className="sm:hidden" onSelect={onDelete}>
          <Trash2 className="text-destructive" aria-hidden="true" />
          Delete post
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

import { Pin, PinOff } from 'lucide-react'
import type { MenuProps } from '@/components/ui/deferred'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import type { OwnPostMenuProps } from './own-post-menu'

/** The own post's menu itself (loaded apart: own-post-menu.tsx). */
export default function OwnPostMenuContent({ trigger, defaultOpen, pinned, onPinChange }: MenuProps & Omit<OwnPostMenuProps, 'trigger'>) {
  return (
    <DropdownMenu defaultOpen={defaultOpen} modal={false}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-52">
        <DropdownMenuItem onSelect={() => onPinChange(!pinned)}>
          {pinned ? <PinOff aria-hidden="true" /> : <Pin aria-hidden="true" />}
          {pinned ? 'Unpin from profile' : 'Pin to profile'}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

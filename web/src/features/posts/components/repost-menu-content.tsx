import { MessageSquareOff, MessageSquareQuote, Quote, Repeat2 } from 'lucide-react'
import type { MenuProps } from '@/components/ui/deferred'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import type { RepostMenuProps } from './repost-menu'

/** The repost menu itself (loaded apart: repost-menu.tsx). */
export default function RepostMenuContent({
  trigger,
  defaultOpen,
  isReposted,
  canQuote,
  onRepost,
  onQuote,
  quoting,
}: MenuProps & Omit<RepostMenuProps, 'trigger'>) {
  return (
    <DropdownMenu defaultOpen={defaultOpen} modal={false}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-52">
        <DropdownMenuItem onSelect={onRepost}>
          <Repeat2 className="size-4" aria-hidden="true" /> {isReposted ? 'Undo repost' : 'Repost'}
        </DropdownMenuItem>
        <DropdownMenuItem disabled={!canQuote} onSelect={onQuote}>
          <Quote className="size-4" aria-hidden="true" /> {canQuote ? 'Quote' : 'Quoting is turned off'}
        </DropdownMenuItem>
        {quoting && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => quoting.onChange(!quoting.allowed)}>
              {quoting.allowed ? (
                <MessageSquareOff className="size-4" aria-hidden="true" />
              ) : (
                <MessageSquareQuote className="size-4" aria-hidden="true" />
              )}
              {quoting.allowed ? 'Turn off quoting' : 'Turn on quoting'}
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

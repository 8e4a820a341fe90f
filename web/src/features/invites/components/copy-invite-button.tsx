import * as React from 'react'
import { Check, Copy, Link2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { toast } from '@/components/ui/use-toast'

/** How long the button says "Copied". */
export const COPIED_MS = 2000

/** An invite as a link: `/join/{code}` opens sign-up with the code filled in. */
export const inviteLink = (code: string) => `${window.location.origin}/join/${code}`

const COPIES = {
  code: { label: 'Copy', name: (code: string) => `Copy invite code ${code}`, text: (code: string) => code, icon: Copy },
  link: { label: 'Copy link', name: (code: string) => `Copy link for invite ${code}`, text: inviteLink, icon: Link2 },
} as const

/** Copies an invite's code, or its link, to the clipboard and says so for a moment. */
export function CopyInviteButton({ code, what = 'code' }: { code: string; what?: 'code' | 'link' }) {
  const [copied, setCopied] = React.useState(false)
  React.useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPIED_MS)
    return () => clearTimeout(timer)
  }, [copied])
  const copy = COPIES[what]
  const Icon = copy.icon
  return (
    <Button
      variant="outline"
      size="sm"
      aria-label={copied ? 'Copied' : copy.name(code)}
      onClick={() => {
        navigator.clipboard.writeText(copy.text(code)).then(
          () => {
            setCopied(true)
            toast({
              title: 'Copied',
              description: what === 'code' ? `Invite code ${code} copied to your clipboard.` : 'Invite link copied to your clipboard.',
            })
          },
          () => toast({ title: 'Error', description: `Could not copy the ${what}.`, variant: 'destructive' }),
        )
      }}
    >
      {copied ? <Check aria-hidden="true" /> : <Icon aria-hidden="true" />}
      {copied ? 'Copied' : copy.label}
    </Button>
  )
}

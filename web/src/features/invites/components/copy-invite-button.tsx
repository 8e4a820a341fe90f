import * as React from 'react'
import { Check, Copy } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { toast } from '@/components/ui/use-toast'

/** How long the button says "Copied". */
export const COPIED_MS = 2000

/** Copies an invite code to the clipboard and says so for a moment. */
export function CopyInviteButton({ code }: { code: string }) {
  const [copied, setCopied] = React.useState(false)
  React.useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPIED_MS)
    return () => clearTimeout(timer)
  }, [copied])
  return (
    <Button
      variant="outline"
      size="sm"
      aria-label={copied ? 'Copied' : `Copy invite code ${code}`}
      onClick={() => {
        navigator.clipboard.writeText(code).then(
          () => {
            setCopied(true)
            toast({ title: 'Copied', description: `Invite code ${code} copied to your clipboard.` })
          },
          () => toast({ title: 'Error', description: 'Could not copy the code.', variant: 'destructive' }),
        )
      }}
    >
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      {copied ? 'Copied' : 'Copy'}
    </Button>
  )
}

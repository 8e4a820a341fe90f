import { messageOf } from './api-client'
import { handleUnauthorized } from './unauthorized'
import { toast } from '@/components/ui/use-toast'

/** A refused or failed action: the server's reason if it gave one ("You can't block yourself"). */
export function toastFailure(error: unknown, fallback: string) {
  if (!handleUnauthorized(error)) toast({ title: 'Error', description: messageOf(error, fallback), variant: 'destructive' })
}

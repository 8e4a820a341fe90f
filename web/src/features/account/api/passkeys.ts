import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type PublicKeyCredentialCreationOptionsJSON, startRegistration } from '@simplewebauthn/browser'
import { api } from '@/lib/api-client'
import { accountKeys } from '@/lib/query-keys'
import { toast } from '@/components/ui/use-toast'
import { toastFailure } from '@/lib/toast-failure'
import { handleUnauthorized } from '@/lib/unauthorized'
import { isPasskeyCancelled, passkeyFailure } from '@/features/auth'
import { needsRecentSignIn } from './confirm-its-you'

/** One of the member's passkeys (GET /api/auth/passkeys). */
export interface MemberPasskey {
  id: number
  name: string
  createdAt: string
  /** Its last sign-in; null when it has never signed in. */
  lastUsedAt: string | null
}

interface RegistrationCeremony {
  ceremony: string
  options: { publicKey: PublicKeyCredentialCreationOptionsJSON }
}

/** Newest first. */
export const getPasskeys = () => api.get<MemberPasskey[]>('/api/auth/passkeys')

export function usePasskeys() {
  return useQuery(queryOptions({ queryKey: accountKeys.passkeys(), queryFn: getPasskeys }))
}

/**
 * Adds a passkey named `name`: the server begins the ceremony, the browser makes the passkey
 * (asking the person), and the server checks and keeps it (and e-mails the member a notice).
 * A session signed in too long ago is refused (`needsRecentSignIn`) until the member confirms it.
 */
export async function addPasskey(name: string): Promise<MemberPasskey> {
  const begun = await api.post<RegistrationCeremony>('/api/auth/passkeys/register/start')
  const credential = await startRegistration({ optionsJSON: begun.options.publicKey })
  return api.post<MemberPasskey>('/api/auth/passkeys/register/finish', { ceremony: begun.ceremony, name, credential })
}

export function useAddPasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: addPasskey,
    onSuccess: (added) => {
      queryClient.setQueryData<MemberPasskey[]>(accountKeys.passkeys(), (list) => [added, ...(list ?? [])])
      toast({ title: 'Passkey added', description: `You can sign in with “${added.name}” from now on.` })
    },
    onError: (error) => {
      // The form asks the member to confirm it's them instead.
      if (needsRecentSignIn(error) || isPasskeyCancelled(error) || handleUnauthorized(error)) return
      toast({ title: 'Passkey not added', description: passkeyFailure(error, 'add'), variant: 'destructive' })
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.passkeys() }),
  })
}

export const removePasskey = (id: number) => api.delete(`/api/auth/passkeys/${id}`)

export function useRemovePasskey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (passkey: MemberPasskey) => removePasskey(passkey.id),
    onSuccess: (_none, passkey) => {
      queryClient.setQueryData<MemberPasskey[]>(accountKeys.passkeys(), (list) => list?.filter((p) => p.id !== passkey.id))
      toast({ title: `Removed “${passkey.name}”`, description: 'It no longer signs in to your account.' })
    },
    onError: (error) => toastFailure(error, 'Removing the passkey failed. Please try again.'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.passkeys() }),
  })
}

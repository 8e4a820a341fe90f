import {
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  WebAuthnAbortService,
  startAuthentication,
} from '@simplewebauthn/browser'
import { api } from '@/lib/api-client'
import type { User } from '@/lib/types'

/** A begun sign-in: its id, and WebAuthn's request options (no member named: the browser offers its passkeys). */
export interface SignInCeremony {
  ceremony: string
  options: { publicKey: PublicKeyCredentialRequestOptionsJSON }
}

/** Begins a passkey sign-in on the server (works once, for a few minutes). */
export const beginPasskeySignIn = () => api.post<SignInCeremony>('/api/auth/passkeys/login/start')

/**
 * Asks the browser for a passkey: its own dialog, or the e-mail field's autofill when
 * `autofill` (it waits until the person picks one). A newer ceremony cancels an older one still
 * waiting (AbortError).
 */
export const askForPasskey = (begun: SignInCeremony, autofill: boolean) =>
  startAuthentication({ optionsJSON: begun.options.publicKey, useBrowserAutofill: autofill })

/** Checks the browser's answer and signs in exactly as a magic link does (session cookie); answers the member. */
export const finishPasskeySignIn = (begun: SignInCeremony, credential: AuthenticationResponseJSON) =>
  api.post<User>('/api/auth/passkeys/login/finish', { ceremony: begun.ceremony, credential })

/** Stops a sign-in still waiting in the browser (the autofill offer, when the dialog closes). */
export function cancelPasskeySignIn() {
  WebAuthnAbortService.cancelCeremony()
}

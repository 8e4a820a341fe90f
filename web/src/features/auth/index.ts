// What other features may use from auth; anything else here is internal.
export { canModerate, useMe, useRole } from './api/get-me'
export { useCurrentUser } from './api/get-user'
export { useLogout } from './api/logout'
export { LoginDialog } from './components/login-dialog'
export { askForPasskey, beginPasskeySignIn } from './api/passkey-sign-in'
export { verifyMagicLink } from './api/verify'
export { isPasskeyCancelled, passkeyFailure } from './lib/passkey-errors'
export { passkeysWorkHere, whyNoPasskeys } from './lib/passkeys-here'

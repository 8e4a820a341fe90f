// What the app may use from account; anything else here is internal.
export { ConfirmEmailChange } from './components/confirm-email-change'
export { ConfirmSignIn } from './components/confirm-sign-in'
export { EmailCard } from './components/email-card'
export { SessionsCard } from './components/sessions-card'
export { PasskeysCard } from './components/passkeys-card'
export { DeleteAccountSection } from './components/delete-account-section'
export { ConfirmDeletion } from './components/confirm-deletion'
export { DataExportSection } from './components/data-export-section'

// What other parts of the app may use from account (deleting one's account); anything else here is internal.
export { DeleteAccountSection } from './components/delete-account-section'
export { ConfirmDeletion } from './components/confirm-deletion'

// What other features may use from posts; anything else here is internal.
export { postKeys } from './api/keys'

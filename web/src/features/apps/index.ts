// What the app may use from apps; anything else here is internal.
export { ConsentScreen } from './components/consent-screen'
export { ConnectedAppsCard } from './components/connected-apps-card'
export { takePendingAuthorization } from './lib/authorization'

// What the app composes from push; anything else here is internal.
export { PushSettingsCard } from './components/push-settings-card'
export { PushSuggestion } from './components/push-suggestion'

// What other features and routes may use from account; anything else here is internal.
export { DataExportSection } from './components/data-export-section'
export { dataExportKeys } from './api/data-export-keys'

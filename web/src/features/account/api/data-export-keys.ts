export const DATA_EXPORT_ROOT = 'data-export'
export const dataExportKeys = {
  all: [DATA_EXPORT_ROOT] as const,
  state: () => [DATA_EXPORT_ROOT, 'state'] as const,
}

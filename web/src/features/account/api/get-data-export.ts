import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { dataExportKeys } from '@/lib/query-keys'

/** How the member's "Download my data" archive stands (`GET /api/account/export`). */
export interface DataExport {
  status: 'none' | 'pending' | 'ready' | 'failed'
  requestedAt?: string
  /** Bytes (ready only). */
  size?: number
  readyAt?: string
  /** When the archive is removed (ready only). */
  expiresAt?: string
}

/** While the archive is being prepared, how often its state is asked again. */
export const PENDING_POLL_MS = 3000

export const getDataExport = () => api.get<DataExport>('/api/account/export')

export const dataExportQueryOptions = () =>
  queryOptions({
    queryKey: dataExportKeys.state(),
    queryFn: getDataExport,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_POLL_MS : false),
  })

export function useDataExport() {
  return useQuery(dataExportQueryOptions())
}

import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toastFailure } from '@/lib/toast-failure'
import { dataExportKeys } from '@/lib/query-keys'
import type { DataExport } from './get-data-export'

export const requestDataExport = () => api.post<DataExport>('/api/account/export')

/** Asks for an archive; the answer (a new one being prepared, or the one there is) is the state. */
export function useRequestDataExport() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: requestDataExport,
    onSuccess: (state) => queryClient.setQueryData(dataExportKeys.state(), state),
    onError: (error) => toastFailure(error, 'Your data could not be requested. Please try again.'),
  })
}

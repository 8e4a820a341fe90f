import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { toast } from '@/components/ui/use-toast'
import { toastFailure } from '@/lib/toast-failure'
import { appKeys } from '@/lib/query-keys'
import type { ConnectedApp } from '@/lib/types'

/** The apps holding access to the member's account, most recently used first. */
export const getConnectedApps = () => api.get<ConnectedApp[]>('/api/apps')

export function useConnectedApps() {
  return useQuery(queryOptions({ queryKey: appKeys.connected(), queryFn: getConnectedApps }))
}

/** Ends an app's access: every token it holds of the member's. */
export const disconnectApp = (id: number) => api.delete(`/api/apps/${id}`)

export function useDisconnectApp() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (app: ConnectedApp) => disconnectApp(app.id),
    onSuccess: (_none, app) => {
      queryClient.setQueryData<ConnectedApp[]>(appKeys.connected(), (list) => list?.filter((a) => a.id !== app.id))
      toast({ title: `${app.name} no longer has access` })
    },
    onError: (error) => toastFailure(error, 'Access could not be revoked. Please try again.'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: appKeys.connected() }),
  })
}

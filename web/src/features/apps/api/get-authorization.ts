import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { appKeys } from '@/lib/query-keys'
import type { AppRequest } from '@/lib/types'
import type { AuthorizationParams } from '../lib/authorization'

/** What the app asks for, checked by the server (its app, redirect URI and scopes). */
export const getAuthorization = (params: AuthorizationParams) => {
  const query = new URLSearchParams({ client_id: params.clientId })
  if (params.redirectUri) query.set('redirect_uri', params.redirectUri)
  if (params.scope) query.set('scope', params.scope)
  return api.get<AppRequest>(`/api/oauth/authorization?${query.toString()}`)
}

export function useAuthorization(params: AuthorizationParams) {
  return useQuery(
    queryOptions({
      queryKey: appKeys.request(JSON.stringify(params)),
      queryFn: () => getAuthorization(params),
      retry: false,
      staleTime: Infinity,
    }),
  )
}

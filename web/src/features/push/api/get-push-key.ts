import { queryOptions } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { pushKeys } from '@/lib/query-keys'
import type { PushKey } from '@/lib/types'

export const getPushKey = () => api.get<PushKey>('/api/push/key')

/** The key changes only when the operator replaces it: asked once a page. */
export const pushKeyQueryOptions = () => queryOptions({ queryKey: pushKeys.key(), queryFn: getPushKey, staleTime: Infinity })

import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Thread } from '@/lib/types'
import { postKeys } from '@/lib/query-keys'

export const getThread = (id: number) => api.get<Thread>(`/api/posts/${id}/thread`)

export const threadQueryOptions = (id: number) => queryOptions({ queryKey: postKeys.thread(id), queryFn: () => getThread(id) })

export function useThread(id: number) {
  return useQuery({ ...threadQueryOptions(id), enabled: Number.isFinite(id) })
}

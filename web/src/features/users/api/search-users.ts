import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { User } from '@/lib/types'
import { userKeys } from '@/lib/query-keys'

export const SEARCH_LIMIT = 20

export const searchUsers = (term: string) =>
  api.get<User[]>(`/api/users/search?q=${encodeURIComponent(term)}&limit=${SEARCH_LIMIT}`)

export const searchQueryOptions = (term: string) =>
  queryOptions({ queryKey: userKeys.search(term), queryFn: () => searchUsers(term) })

/** Runs only for a non-empty term. */
export function useSearchUsers(term: string) {
  const trimmed = term.trim()
  return useQuery({ ...searchQueryOptions(trimmed), enabled: trimmed.length > 0 })
}

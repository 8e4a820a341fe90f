import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, isUnauthorized } from '@/lib/api-client'
import type { User } from '@/lib/types'
import { authKeys } from '@/lib/query-keys'

/** The member shell's current user (GET /api/auth/user); null without a session. */
export async function getCurrentUser(): Promise<User | null> {
  try {
    return await api.get<User>('/api/auth/user')
  } catch (error) {
    if (isUnauthorized(error)) return null
    throw error
  }
}

export const currentUserQueryOptions = () => queryOptions({ queryKey: authKeys.user(), queryFn: getCurrentUser })

export function useCurrentUser() {
  const queryClient = useQueryClient()
  return useQuery({
    ...currentUserQueryOptions(),
    // The app shell asked /api/auth/me (the same answer) a moment ago: start from it rather than
    // wait another round trip before Home can ask for its posts. Invalidating `user` still refetches.
    initialData: () => queryClient.getQueryData<User | null>(authKeys.me()) ?? undefined,
    initialDataUpdatedAt: () => queryClient.getQueryState(authKeys.me())?.dataUpdatedAt,
  })
}

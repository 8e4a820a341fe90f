import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { User } from '@/lib/types'
import { authKeys } from '@/lib/query-keys'

/** The member's setting "Always expand posts with content warnings", on their own record. */
export const setExpandWarnings = (on: boolean) => api.put<User>('/api/users/preferences', { expandContentWarnings: on })

/**
 * Whether the member opens posts with content warnings at once: read from the member's own record as the
 * shell already holds it (no request of its own, so every card can ask); off until it is known.
 */
export function useExpandWarnings(): boolean {
  const { data } = useQuery<User | null>({ queryKey: authKeys.me(), enabled: false })
  return data?.expandContentWarnings ?? false
}

/** Turns the setting on or off at once; back as it was when the server refuses. */
export function useSetExpandWarnings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setExpandWarnings,
    // One change at a time: a second click waits for the first, so the last one wins.
    scope: { id: 'expand-warnings' },
    onMutate: async (on) => {
      await queryClient.cancelQueries({ queryKey: authKeys.me() })
      const before = queryClient.getQueryData<User | null>(authKeys.me())
      if (before) {
        const after: User = { ...before, expandContentWarnings: on }
        queryClient.setQueryData(authKeys.me(), after)
      }
      return { before }
    },
    onError: (_error, _on, context) => {
      if (context?.before) queryClient.setQueryData(authKeys.me(), context.before)
    },
    onSuccess: (user) => queryClient.setQueryData(authKeys.me(), user),
  })
}

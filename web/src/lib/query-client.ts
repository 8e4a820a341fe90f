import { QueryClient } from '@tanstack/react-query'

// Spec §7: no retries, no refetch on focus, no polling, never stale.
export const queryDefaults = {
  queries: {
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: false,
    staleTime: Infinity,
  },
  mutations: { retry: false },
} as const

export function createQueryClient() {
  return new QueryClient({ defaultOptions: queryDefaults })
}

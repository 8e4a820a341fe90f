import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { authKeys } from '@/lib/query-keys'
import type { MessagesFrom, User } from '@/lib/types'

/** The member's setting "Allow new messages from"; the server answers their own record. */
export const setMessagesFrom = (messagesFrom: MessagesFrom) => api.put<User>('/api/users/preferences', { messagesFrom })

/** The setting as the member's own record (which the shell holds) says it; the default until known. */
export function useMessagesFrom(): MessagesFrom {
  const { data } = useQuery<User | null>({ queryKey: authKeys.me(), enabled: false })
  return data?.messagesFrom ?? 'following'
}

/** Saves the choice at once; back as it was when the server refuses. */
export function useSetMessagesFrom() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: setMessagesFrom,
    // One change at a time: a second choice waits for the first, so the last one wins.
    scope: { id: 'messages-from' },
    onMutate: async (messagesFrom) => {
      await queryClient.cancelQueries({ queryKey: authKeys.me() })
      const before = queryClient.getQueryData<User | null>(authKeys.me())
      if (before) queryClient.setQueryData<User>(authKeys.me(), { ...before, messagesFrom })
      return { before }
    },
    onError: (_error, _choice, context) => {
      if (context?.before) queryClient.setQueryData(authKeys.me(), context.before)
    },
    onSuccess: (user) => queryClient.setQueryData(authKeys.me(), user),
  })
}

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { notificationKeys, postKeys, safetyKeys } from '@/lib/query-keys'
import type { MutedWord } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { toastFailure } from '@/lib/toast-failure'

/** The longest muted word, phrase or hashtag (the server's limit). */
export const MUTED_WORD_MAX_CHARS = 100

/** The member's muted words that have not ended, newest first. */
export const getMutedWords = () => api.get<MutedWord[]>('/api/muted-words')

export function useMutedWords() {
  return useQuery(queryOptions({ queryKey: safetyKeys.mutedWords(), queryFn: getMutedWords }))
}

/** What a muted word hides changed: every list of posts and the notifications are asked again. */
function listsChanged(queryClient: ReturnType<typeof useQueryClient>) {
  for (const queryKey of [postKeys.all, notificationKeys.all, safetyKeys.mutedWords()]) {
    void queryClient.invalidateQueries({ queryKey })
  }
}

export interface NewMutedWord {
  text: string
  /** Absent: until removed. */
  hours?: number
}

export const muteWord = (word: NewMutedWord) => api.post<MutedWord>('/api/muted-words', word)

export function useMuteWord() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: muteWord,
    onSuccess: (added) => {
      queryClient.setQueryData<MutedWord[]>(safetyKeys.mutedWords(), (list) => [
        added,
        ...(list ?? []).filter((w) => w.id !== added.id),
      ])
      toast({ title: `Muted “${added.text}”` })
      listsChanged(queryClient)
    },
  })
}

export const unmuteWord = (id: number) => api.delete(`/api/muted-words/${id}`)

export function useUnmuteWord() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (word: MutedWord) => unmuteWord(word.id),
    onSuccess: (_none, word) => {
      queryClient.setQueryData<MutedWord[]>(safetyKeys.mutedWords(), (list) => list?.filter((w) => w.id !== word.id))
      toast({ title: `Unmuted “${word.text}”` })
      listsChanged(queryClient)
    },
    onError: (error) => toastFailure(error, 'Failed to unmute. Please try again.'),
  })
}

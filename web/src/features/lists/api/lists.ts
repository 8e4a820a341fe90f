import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { listKeys, postKeys } from '@/lib/query-keys'
import type { MemberList, User } from '@/lib/types'
import { feedHasMore, postPagesOptions } from '@/features/posts'

export const listsQueryOptions = () => queryOptions({ queryKey: listKeys.mine(), queryFn: () => api.get<MemberList[]>('/api/lists') })

/** The member's lists, oldest first. */
export function useLists() {
  return useQuery(listsQueryOptions())
}

/** One of the member's lists (a 404 for anyone else's). */
export function useList(id: number) {
  return useQuery({ queryKey: listKeys.one(id), queryFn: () => api.get<MemberList>(`/api/lists/${id}`) })
}

/** The people in a list, by username. */
export function useListMembers(id: number, enabled = true) {
  return useQuery({ queryKey: listKeys.members(id), queryFn: () => api.get<User[]>(`/api/lists/${id}/members`), enabled })
}

/**
 * A list's feed, paged as Friends: a page covers 20 entries but shows one card per post, so it
 * goes on after a page whose cards stand for 20.
 */
export const listFeedQueryOptions = (id: number) => postPagesOptions(postKeys.list(id), `/api/lists/${id}/posts`, 0, feedHasMore)

export function useListFeed(id: number) {
  return useInfiniteQuery(listFeedQueryOptions(id))
}

/** A list as answered after a change: every view of it shows the answer. */
function useListChanged() {
  const queryClient = useQueryClient()
  return (list: MemberList) => {
    queryClient.setQueryData(listKeys.one(list.id), list)
    queryClient.setQueryData<MemberList[]>(listKeys.mine(), (lists) => lists?.map((l) => (l.id === list.id ? list : l)))
  }
}

export function useCreateList() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (title: string) => api.post<MemberList>('/api/lists', { title }),
    onSuccess: (list) => {
      queryClient.setQueryData<MemberList[]>(listKeys.mine(), (lists) => (lists ? [...lists, list] : lists))
      void queryClient.invalidateQueries({ queryKey: listKeys.mine() })
    },
  })
}

export function useRenameList() {
  const changed = useListChanged()
  return useMutation({
    mutationFn: ({ id, title }: { id: number; title: string }) => api.put<MemberList>(`/api/lists/${id}`, { title }),
    onSuccess: changed,
  })
}

export function useDeleteList() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => api.delete(`/api/lists/${id}`),
    onSuccess: (_none, id) => {
      queryClient.setQueryData<MemberList[]>(listKeys.mine(), (lists) => lists?.filter((l) => l.id !== id))
      queryClient.removeQueries({ queryKey: listKeys.one(id) })
      queryClient.removeQueries({ queryKey: listKeys.members(id) })
      queryClient.removeQueries({ queryKey: postKeys.list(id) })
    },
  })
}

/** Adds and takes out people in one save: the members and the feed are read again after. */
export function useSaveListMembers(id: number) {
  const queryClient = useQueryClient()
  const changed = useListChanged()
  return useMutation({
    mutationFn: async ({ add, remove }: { add: number[]; remove: number[] }) => {
      let list: MemberList | undefined
      // A request takes at most 100 people.
      for (let i = 0; i < add.length; i += 100) {
        list = await api.post<MemberList>(`/api/lists/${id}/members`, { userIds: add.slice(i, i + 100) })
      }
      for (let i = 0; i < remove.length; i += 100) {
        list = await api.delete<MemberList>(`/api/lists/${id}/members`, { userIds: remove.slice(i, i + 100) })
      }
      return list
    },
    onSuccess: (list) => {
      if (list) changed(list)
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: listKeys.members(id) })
      void queryClient.invalidateQueries({ queryKey: postKeys.list(id) })
    },
  })
}

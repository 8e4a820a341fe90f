import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { MUTE_DURATIONS, type MutedMember } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { memberChanged, type MemberRef } from './member-changed'
import { toastFailure } from '@/lib/toast-failure'

/** 1, 24 or 168 hours; null mutes until the member unmutes. */
export type MuteHours = (typeof MUTE_DURATIONS)[number]['hours'] | null

export const muteMember = (userId: number, durationHours: MuteHours) =>
  api.post<MutedMember>('/api/mutes', { userId, durationHours })

export function useMuteMember() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ member, hours }: { member: MemberRef; hours: MuteHours }) => muteMember(member.id, hours),
    onSuccess: (muted, { member, hours }) => {
      memberChanged(queryClient, member, { isMuting: true, mutedUntil: muted?.expiresAt ?? null })
      const label = MUTE_DURATIONS.find((duration) => duration.hours === hours)?.label
      toast({ title: `Muted @${member.username}`, description: label ? `For ${label}.` : 'Until you unmute them.' })
    },
    onError: (error) => toastFailure(error, 'Failed to mute. Please try again.'),
  })
}

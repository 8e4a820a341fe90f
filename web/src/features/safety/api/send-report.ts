import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, messageOf } from '@/lib/api-client'
import type { Report, ReportReason } from '@/lib/types'
import { toast } from '@/components/ui/use-toast'
import { blockMember } from './block-member'
import { memberChanged, type MemberRef } from './member-changed'
import { toastFailure } from '@/lib/toast-failure'

/**
 * What a report is of (exactly one): a post, a member, or 1 to 20 messages of one conversation,
 * some written by the member reported.
 */
export type ReportTarget = { postId: number } | { userId: number } | { messageIds: number[] }

export interface ReportInput {
  target: ReportTarget
  reason: ReportReason
  comment: string
  /** A member reported may be blocked with the same press. */
  alsoBlock?: MemberRef
}

export const sendReport = ({ target, reason, comment }: ReportInput) =>
  api.post<Report>('/api/reports', { ...target, reason, ...(comment ? { comment } : {}) })

/** Sends the report, then the block if asked; a failed block does not unsend the report. */
async function reportThenBlock(input: ReportInput) {
  const report = await sendReport(input)
  let blockFailure: unknown
  if (input.alsoBlock) {
    try {
      await blockMember(input.alsoBlock.id)
    } catch (error) {
      blockFailure = error
    }
  }
  return { report, blockFailure }
}

export function useSendReport() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: reportThenBlock,
    onSuccess: ({ blockFailure }, { alsoBlock }) => {
      if (!alsoBlock) {
        toast({ title: 'Report sent', description: 'Thank you. Moderators will look at it.' })
      } else if (blockFailure) {
        toast({
          title: 'Report sent',
          description: `Blocking @${alsoBlock.username} failed: ${messageOf(blockFailure, 'please try again.')}`,
          variant: 'destructive',
        })
      } else {
        memberChanged(queryClient, alsoBlock, { isBlocking: true })
        toast({ title: 'Report sent', description: `You blocked @${alsoBlock.username}.` })
      }
    },
    onError: (error) => toastFailure(error, 'Failed to send the report. Please try again.'),
  })
}

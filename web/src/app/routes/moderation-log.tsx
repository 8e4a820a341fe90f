import { ModerationLog } from '@/features/moderation/components/moderation-log'
import { PageHeader } from './page-header'

export default function ModerationLogRoute() {
  return (
    <>
      <PageHeader title="Moderation log" />
      <ModerationLog />
    </>
  )
}

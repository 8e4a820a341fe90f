import { ModerationLog } from '@/features/moderation'
import { PageHeader } from './page-header'

export default function ModerationLogRoute() {
  return (
    <>
      <PageHeader title="Moderation log" />
      <ModerationLog />
    </>
  )
}

import { Link } from 'wouter'
import { ReportQueue } from '@/features/moderation/components/report-queue'
import { PageHeader } from './page-header'

export default function ModerationRoute() {
  return (
    <>
      <PageHeader title="Moderation">
        <Link href="/moderation/log" className="text-sm text-primary hover:underline">
          Moderation log
        </Link>
      </PageHeader>
      <ReportQueue />
    </>
  )
}

import { DataExportSection } from '@/features/account'
import { BlockedMembers, MutedMembers } from '@/features/safety/components/settings-lists'
import { PageHeader } from './page-header'

export default function SettingsRoute() {
  return (
    <>
      <PageHeader title="Settings" />
      <div className="grid gap-4 p-4">
        <BlockedMembers />
        <MutedMembers />
        <DataExportSection />
      </div>
    </>
  )
}

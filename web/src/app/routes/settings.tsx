import { ConnectedAppsCard } from '@/features/apps'
import { DataExportSection, DeleteAccountSection, EmailCard, SessionsCard } from '@/features/account'
import { BlockedMembers, MutedMembers } from '@/features/safety/components/settings-lists'
import { ContentWarningSetting, ImageDescriptionSetting } from '@/features/posts'
import { UsernameCard } from '@/features/users'
import { PageHeader } from './page-header'

export default function SettingsRoute() {
  return (
    <>
      <PageHeader title="Settings" />
      <div className="grid gap-4 p-4">
        <UsernameCard />
        <EmailCard />
        <SessionsCard />
        <ConnectedAppsCard />
        <ImageDescriptionSetting />
        <ContentWarningSetting />
        <BlockedMembers />
        <MutedMembers />
        <DataExportSection />
        <DeleteAccountSection />
      </div>
    </>
  )
}

import { ConnectedAppsCard } from '@/features/apps'
import { DataExportSection, DeleteAccountSection, EmailCard, PasskeysCard, SessionsCard } from '@/features/account'
import { BlockedMembers, MutedMembers } from '@/features/safety/components/settings-lists'
import { FollowedTagsCard } from '@/features/discover/components/followed-tags-card'
import { MutedWordsCard } from '@/features/safety/components/muted-words-card'
import { ContentWarningSetting, ImageDescriptionSetting } from '@/features/posts'
import { MessagesFromSetting } from '@/features/messages'
import { PushSettingsCard } from '@/features/push'
import { UsernameCard } from '@/features/users'
import { PageHeader } from './page-header'

export default function SettingsRoute() {
  return (
    <>
      <PageHeader title="Settings" />
      <div className="grid gap-4 p-4">
        <UsernameCard />
        <EmailCard />
        <PasskeysCard />
        <SessionsCard />
        <ConnectedAppsCard />
        <PushSettingsCard />
        <ImageDescriptionSetting />
        <ContentWarningSetting />
        <MessagesFromSetting />
        <FollowedTagsCard />
        <BlockedMembers />
        <MutedMembers />
        <MutedWordsCard />
        <DataExportSection />
        <DeleteAccountSection />
      </div>
    </>
  )
}

import { ConfirmDeletion } from '@/features/account'
import { PageHeader } from './page-header'

/** Where the e-mailed deletion link lands: `/account/delete?token=…`. */
export default function DeleteAccountRoute() {
  const token = new URLSearchParams(window.location.search).get('token')
  return (
    <>
      <PageHeader title="Delete account" />
      <ConfirmDeletion token={token} />
    </>
  )
}

import { ConfirmSignIn } from '@/features/account'

export default function ReauthenticateRoute() {
  return <ConfirmSignIn />
}

import { ConsentScreen } from '@/features/apps'

export default function AuthorizeRoute() {
  return <ConsentScreen />
}

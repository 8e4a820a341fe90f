import { useParams } from 'wouter'
import { MessagesScreen } from '@/features/messages'
import NotFoundRoute from './not-found'

/** `/messages` and `/messages/{id}`: the member's conversations, and the one open. */
export default function MessagesRoute() {
  const params = useParams<{ id?: string }>()
  const id = params.id === undefined ? null : Number(params.id)
  if (id !== null && (!Number.isSafeInteger(id) || id < 1)) return <NotFoundRoute />
  return <MessagesScreen openId={id} />
}

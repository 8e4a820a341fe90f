import { useParams } from 'wouter'
import { useListScreen } from '@/features/lists'
import NotFoundRoute from './not-found'
import { PageHeader } from './page-header'

/** `/lists/{id}`: one of the member's lists, read as a feed. */
export default function ListRoute() {
  const params = useParams<{ id: string }>()
  const id = Number(params.id)
  if (!Number.isSafeInteger(id) || id < 1) return <NotFoundRoute />
  return <ListFeed key={id} id={id} />
}

function ListFeed({ id }: { id: number }) {
  const { title, before, actions, body } = useListScreen(id)
  return (
    <>
      <PageHeader title={title} before={before}>
        {actions}
      </PageHeader>
      {body}
    </>
  )
}

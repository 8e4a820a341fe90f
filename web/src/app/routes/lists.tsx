import { ListsScreen } from '@/features/lists'
import { PageHeader } from './page-header'

export default function ListsRoute() {
  return (
    <>
      <PageHeader title="Lists" />
      <ListsScreen />
    </>
  )
}

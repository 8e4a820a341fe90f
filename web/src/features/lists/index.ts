export { ListsScreen } from './components/lists-screen'
export { useListScreen } from './components/list-screen'

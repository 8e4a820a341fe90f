/** `pending` with the distinct ids of `incoming` it lacks added; `pending` itself when there are none. */
export function addNewPostIds(pending: readonly number[], incoming: readonly number[]): readonly number[] {
  const known = new Set(pending)
  const added: number[] = []
  for (const id of incoming) {
    if (known.has(id)) continue
    known.add(id)
    added.push(id)
  }
  return added.length ? [...pending, ...added] : pending
}

/** How many of the `pending` posts the feed has not loaded. */
export function countUnloaded(pending: readonly number[], loaded: ReadonlySet<number>): number {
  return pending.filter((id) => !loaded.has(id)).length
}

const posts = (count: number) => `${count} new ${count === 1 ? 'post' : 'posts'}`

/** The button's words: "Show 1 new post", "Show 3 new posts". */
export const showNewPostsLabel = (count: number) => `Show ${posts(count)}`

/** What a screen reader hears once when the button appears: "3 new posts". */
export const newPostsAnnouncement = (count: number) => posts(count)

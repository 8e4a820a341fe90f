// How the messages' reads stay fresh: a new message, a deletion or a change made in another tab
// arrives as a live `message` event, which reads again what it changed (features/live). A tab
// that was away, or whose stream had to reconnect, reads again when it comes back into focus.

/** Query options of every messages read. */
export const refreshed = {
  staleTime: 0,
  refetchOnWindowFocus: true,
} as const

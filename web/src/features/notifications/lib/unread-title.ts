import * as React from 'react'

const COUNT_PREFIX = /^\(\d+\) /

/** `title` with the unread count in front, "(3) Murmur", or without one at 0; whatever else the title says is kept. */
export function titleWithUnread(title: string, count: number): string {
  const plain = title.replace(COUNT_PREFIX, '')
  return count > 0 ? `(${count}) ${plain}` : plain
}

/** Keeps the unread count in the tab's title while mounted. */
export function useUnreadTitle(count: number) {
  React.useEffect(() => {
    document.title = titleWithUnread(document.title, count)
    return () => {
      document.title = titleWithUnread(document.title, 0)
    }
  }, [count])
}

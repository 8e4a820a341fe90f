import * as React from 'react'

/** The `id` of the shell's picture a member's document starts with (prepaint.tsx, crates/server/src/web/mod.rs). */
export const PREPAINT_ID = 'murmur-prepaint'

/**
 * Removes the document's picture of the shell (prepaint.tsx) once the screen under it is
 * drawn. Put it inside a screen's Suspense boundary, beside the screen: siblings in a boundary
 * commit together, so its layout effect runs when the screen itself is on the page, before the
 * browser paints it, and the picture and the screen never show one after the other with a
 * blank between them.
 */
export function PrepaintDone() {
  React.useLayoutEffect(() => {
    document.getElementById(PREPAINT_ID)?.remove()
  }, [])
  return null
}

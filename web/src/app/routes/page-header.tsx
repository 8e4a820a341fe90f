import * as React from 'react'

/** The sticky title bar at the top of each member screen. */
export function PageHeader({ title, children, before }: { title: React.ReactNode; children?: React.ReactNode; before?: React.ReactNode }) {
  return (
    <div className="sticky top-14 z-20 flex min-h-14 items-center gap-2 border-b border-border bg-background/95 px-4 backdrop-blur lg:top-0">
      {before}
      <h1 className="flex min-w-0 flex-1 items-center gap-2 text-xl font-bold">{title}</h1>
      {children}
    </div>
  )
}

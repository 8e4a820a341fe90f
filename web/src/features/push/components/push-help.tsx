/** Why this browser cannot get pushes, and what can be done. */
export function UnsupportedHelp() {
  return (
    <div className="grid gap-1">
      <p className="font-medium">This browser can't show notifications from Murmur.</p>
      <p className="text-sm text-muted-foreground">
        On an iPhone or iPad, add Murmur to your Home Screen first (Share, then Add to Home Screen) and open it from
        there.
      </p>
    </div>
  )
}

/** Blocked in the browser: only the member can allow it again, in the browser's own settings. */
export function BlockedHelp() {
  return (
    <div className="grid gap-1 rounded-md border border-border bg-muted p-3 text-sm">
      <p className="font-medium">Notifications are blocked for Murmur in this browser.</p>
      <p className="text-muted-foreground">
        To allow them, open the site settings from the icon beside the address (a lock or sliders), set
        Notifications to Allow, then come back to this page.
      </p>
    </div>
  )
}

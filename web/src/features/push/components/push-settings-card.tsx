import * as React from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { LoadError } from '@/components/load-error'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Switch } from '@/components/ui/switch'
import { pushKeys } from '@/lib/query-keys'
import { handleUnauthorized } from '@/lib/unauthorized'
import { useDevicePush } from '../api/get-push-subscription'
import { useSavePushChoices } from '../api/save-push-subscription'
import { useTurnOffPush } from '../api/turn-off-push'
import { useTurnOnPush } from '../api/turn-on-push'
import { useNotificationPermission } from '../lib/browser-push'
import { PUSH_ALERTS, type PushAlert, type PushChoices, type PushPolicy, choicesOf } from '../lib/choices'
import { BlockedHelp, UnsupportedHelp } from './push-help'

/** Settings → "Notifications on this device": pushes to this browser, and which. */
export function PushSettingsCard() {
  const id = React.useId()
  return (
    <Card role="region" aria-labelledby={`${id}-title`}>
      <CardHeader>
        <CardTitle id={`${id}-title`}>Notifications on this device</CardTitle>
        <p className="text-sm text-muted-foreground">
          Replies, mentions and more, shown by this browser even when Murmur is closed. Each device you use has
          its own setting.
        </p>
      </CardHeader>
      <CardContent>
        <DevicePush />
      </CardContent>
    </Card>
  )
}

function DevicePush() {
  const id = React.useId()
  const queryClient = useQueryClient()
  const permission = useNotificationPermission()
  const device = useDevicePush()
  const turnOn = useTurnOnPush()
  const turnOff = useTurnOffPush()
  const save = useSavePushChoices()

  React.useEffect(() => {
    if (device.error) handleUnauthorized(device.error)
  }, [device.error])
  // Allowed or blocked in the browser's own settings meanwhile: what the device gets may have changed.
  const permissionBefore = React.useRef(permission)
  React.useEffect(() => {
    if (permissionBefore.current === permission) return
    permissionBefore.current = permission
    void queryClient.invalidateQueries({ queryKey: pushKeys.subscription() })
  }, [permission, queryClient])

  if (permission === 'unsupported') return <UnsupportedHelp />
  if (device.isPending)
    return (
      <p role="status" className="text-muted-foreground">
        Loading...
      </p>
    )
  if (device.error)
    return (
      <LoadError what="This device's notifications" onRetry={() => void device.refetch()} retrying={device.isRefetching} />
    )

  const saved = permission === 'granted' ? device.data : null
  const status = turnOn.isPending
    ? 'Turning on...'
    : turnOff.isPending
      ? 'Turning off...'
      : save.isPending
        ? 'Saving...'
        : saved && save.isSuccess
          ? 'Saved.'
          : saved
            ? 'Murmur sends notifications to this browser.'
            : 'Murmur sends nothing to this browser.'
  const choose = (choices: PushChoices) => saved && save.mutate({ choices, serverKey: saved.serverKey })
  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <div className="flex items-center justify-between gap-3">
          <label htmlFor={`${id}-device`} className="font-medium">
            Notify me on this device
          </label>
          <Switch
            id={`${id}-device`}
            checked={Boolean(saved)}
            disabled={turnOn.isPending || turnOff.isPending || permission === 'denied'}
            onCheckedChange={(on) => (on ? turnOn.mutate() : turnOff.mutate())}
          />
        </div>
        <p role="status" className="text-sm text-muted-foreground">
          {status}
        </p>
      </div>
      {permission === 'denied' ? (
        <BlockedHelp />
      ) : (
        !saved &&
        turnOn.data === 'dismissed' && (
          <p className="text-sm text-muted-foreground">
            The browser's question was closed without an answer, so notifications stay off. Turn the switch on to
            be asked again.
          </p>
        )
      )}
      {saved && <Choices choices={choicesOf(saved)} onChange={choose} disabled={turnOff.isPending} />}
    </div>
  )
}

function Choices({
  choices,
  onChange,
  disabled,
}: {
  choices: PushChoices
  onChange: (choices: PushChoices) => void
  disabled: boolean
}) {
  const id = React.useId()
  const setAlert = (name: PushAlert, on: boolean) => onChange({ ...choices, alerts: { ...choices.alerts, [name]: on } })
  const setPolicy = (policy: PushPolicy) => onChange({ ...choices, policy })
  return (
    <>
      <fieldset className="grid gap-3 border-t border-border pt-4">
        <legend className="float-left mb-1 w-full font-medium">Notify me about</legend>
        {PUSH_ALERTS.map(({ name, label }) => (
          <div key={name} className="flex items-center justify-between gap-3">
            <label htmlFor={`${id}-${name}`}>{label}</label>
            <Switch
              id={`${id}-${name}`}
              checked={choices.alerts[name]}
              disabled={disabled}
              onCheckedChange={(on) => setAlert(name, on)}
            />
          </div>
        ))}
      </fieldset>
      <fieldset className="grid gap-3 border-t border-border pt-4">
        <legend className="float-left mb-1 w-full font-medium">From</legend>
        {(
          [
            ['all', 'From everyone'],
            ['followed', 'Only people I follow'],
          ] as const
        ).map(([policy, label]) => (
          <div key={policy} className="flex items-center gap-3">
            <input
              id={`${id}-${policy}`}
              type="radio"
              name={`${id}-policy`}
              checked={choices.policy === policy}
              disabled={disabled}
              onChange={() => setPolicy(policy)}
              className="size-5 shrink-0 accent-primary"
            />
            <label htmlFor={`${id}-${policy}`}>{label}</label>
          </div>
        ))}
      </fieldset>
    </>
  )
}

import * as React from 'react'

// One toast at a time (spec §9); a tiny store so toasts can be raised outside React too.
export const TOAST_LIMIT = 1

export interface ToastData {
  id: string
  title?: string
  description?: string
  variant?: 'default' | 'destructive'
  open: boolean
}

type Listener = (toasts: ToastData[]) => void

let toasts: ToastData[] = []
const listeners = new Set<Listener>()
let counter = 0

function emit() {
  for (const listener of listeners) listener(toasts)
}

export function toast(input: Omit<ToastData, 'id' | 'open'>) {
  counter += 1
  const id = String(counter)
  toasts = [{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT)
  emit()
  return id
}

export function dismissToast(id: string) {
  toasts = toasts.map((t) => (t.id === id ? { ...t, open: false } : t))
  emit()
  // leave time for the closing animation, then drop it
  setTimeout(() => {
    toasts = toasts.filter((t) => t.id !== id)
    emit()
  }, 300)
}

export function useToasts(): ToastData[] {
  const [state, setState] = React.useState(toasts)
  React.useEffect(() => {
    listeners.add(setState)
    return () => {
      listeners.delete(setState)
    }
  }, [])
  return state
}

/** Test helper: forget every toast. */
export function resetToasts() {
  toasts = []
  emit()
}

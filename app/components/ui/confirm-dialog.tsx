import { lazy, Suspense, useSyncExternalStore } from 'react'

/**
 * App-wide confirmation dialog that resolves true or false (spec section 4).
 * `if (await confirm({ title: 'Delete this product?' })) ...` from any client code; the
 * Radix dialog behind it is loaded on first use, not with every page. Requests made while one
 * is open wait their turn.
 */
export interface ConfirmOptions {
  title: string
  description?: string
  confirmLabel?: string
  cancelLabel?: string
  /** Shows the confirm button in red, for destructive actions. */
  destructive?: boolean
}

interface ConfirmRequest {
  options: ConfirmOptions
  resolve: (confirmed: boolean) => void
}

const waiting: ConfirmRequest[] = []
let shown: ConfirmRequest | null = null
let everShown = false
const listeners = new Set<() => void>()

function emit() {
  for (const listener of listeners) listener()
}

function showNext() {
  if (shown) return
  shown = waiting.shift() ?? null
  if (shown) everShown = true
  emit()
}

export function confirm(options: ConfirmOptions): Promise<boolean> {
  // Only a browser can ask; on the server the answer is no.
  if (typeof window === 'undefined') return Promise.resolve(false)
  return new Promise<boolean>((resolve) => {
    waiting.push({ options, resolve })
    showNext()
  })
}

/** Answers the request on screen (the dialog's buttons, Escape and the overlay call this). */
export function settleConfirm(confirmed: boolean): void {
  const request = shown
  if (!request) return
  shown = null
  request.resolve(confirmed)
  showNext()
  emit()
}

/** The request on screen, for the host (and tests). */
export function shownConfirm(): ConfirmOptions | null {
  return shown?.options ?? null
}

/** The same function as a hook, for components that prefer hooks. */
export function useConfirm(): (options: ConfirmOptions) => Promise<boolean> {
  return confirm
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

const ConfirmDialogView = lazy(() => import('./confirm-dialog-view'))

/** Mounted once in the root layout; renders nothing until the first confirmation. */
export function ConfirmDialogHost() {
  const request = useSyncExternalStore(subscribe, shownConfirm, () => null)
  const loaded = useSyncExternalStore(
    subscribe,
    () => everShown,
    () => false,
  )
  if (!loaded) return null
  return (
    <Suspense fallback={null}>
      <ConfirmDialogView request={request} onSettle={settleConfirm} />
    </Suspense>
  )
}
